//! Data-driven tests of the evidence auditor: the default allowlist against
//! the seed sample, a seeded corpus with planted anomalies, and the property
//! that consistent records draw no finding.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Value, json};
use tracegate::internals::evidence::{AttemptTracker, Auditor, EvidenceFinding, Summary};

pub(crate) const SEED_SAMPLE: &str = r#"{ "schema_version": "latency-evidence.v1", "trace_id": "tr_synthetic_8f31", "request_id": "req_synthetic_2047", "attempt": 2, "parent_span_id": "span_gateway_01", "span_id": "span_upstream_02", "route_id": "route_example_b", "model_id": "model_alias_example", "provider_request_id": "provider_ref_when_available", "deployment_id": "deployment_example", "region": "region_example", "events": [ { "stage": "upstream", "event_name": "provider_dispatch", "timestamp_utc": "2026-09-08T10:15:30.120Z", "monotonic_ns": 842001000000, "service": "gateway" }, { "stage": "upstream", "event_name": "first_output_token", "timestamp_utc": "2026-09-08T10:15:30.410Z", "monotonic_ns": 842291000000, "service": "stream_processor" }, { "stage": "stream", "event_name": "final_output_token", "timestamp_utc": "2026-09-08T10:15:31.260Z", "monotonic_ns": 843141000000, "service": "stream_processor" } ], "derived_intervals": [ { "name": "gateway_observed_time_to_first_token", "start_event": "provider_dispatch", "end_event": "first_output_token", "duration": 290, "duration_unit": "ms" }, { "name": "token_streaming_time", "start_event": "first_output_token", "end_event": "final_output_token", "duration": 850, "duration_unit": "ms" } ], "clock_source": "local_monotonic_with_utc_correlation", "sync_status": "documented_by_deployment", "status": "completed" }"#;

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
    max_segments: Option<usize>,
    max_segment_len: Option<usize>,
    max_words: Option<usize>,
    separators: Option<String>,
    #[serde(default)]
    required: bool,
    items: Option<Box<Spec>>,
    max_items: Option<usize>,
    fields: Option<BTreeMap<String, Spec>>,
}

fn policy() -> Evidence {
    let text = include_str!("../../crates/tracegate/src/evidence/default_policy.toml");
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
        // Segments: the value cut at every separator (by default every
        // ASCII character that is not a letter or digit); a word is a
        // non-empty segment without a digit.
        let separator = |c: char| match &spec.separators {
            Some(list) => list.contains(c),
            None => c.is_ascii() && !c.is_ascii_alphanumeric(),
        };
        let segments: Vec<&str> = s.split(separator).collect();
        let words = segments
            .iter()
            .filter(|w| !w.is_empty() && !w.chars().any(|c| c.is_ascii_digit()))
            .count();
        if spec.max_segments.is_some_and(|m| segments.len() > m)
            || spec
                .max_segment_len
                .is_some_and(|m| segments.iter().any(|w| w.len() > m))
            || spec.max_words.is_some_and(|m| words > m)
        {
            bad.push(format!("{path}: segments"));
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
    // Names that fit their pattern but spell a sentence (issue 30).
    for (key, value) in [
        ("model_id", "patient-jane-doe-has-hiv"),
        ("region", "jane_doe_has_hiv"),
        ("service", "jane.doe.has.hiv.positive"),
    ] {
        let mut sample: Value = serde_json::from_str(SEED_SAMPLE).unwrap();
        sample[key] = json!(value);
        let mut bad = Vec::new();
        violations(&p.fields, &sample, "", &mut bad);
        assert_eq!(bad, vec![format!("{key}: segments")]);
    }
    let mut sample: Value = serde_json::from_str(SEED_SAMPLE).unwrap();
    sample["derived_intervals"][0]["name"] = json!("jane_doe_asked_to_cancel_her_chemotherapy");
    let mut bad = Vec::new();
    violations(&p.fields, &sample, "", &mut bad);
    assert_eq!(bad, vec!["derived_intervals[0].name: segments".to_owned()]);
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
    let mut auditor = Auditor::new();
    for (n, (line, planted)) in lines.iter().enumerate() {
        let mut out: Vec<EvidenceFinding> = Vec::new();
        let facts = auditor.audit_line(line, &mut out).unwrap();
        let rules: Vec<_> = out.iter().map(|f| f.rule).collect();
        match planted {
            None => {
                assert!(out.is_empty(), "clean line {}: {out:?}", n + 1);
                assert!(facts.intervals().all(|(_, r)| r.is_some()));
            }
            Some(rule) => {
                assert_eq!(rules, vec![*rule], "planted line {}", n + 1);
                found_rules.insert(*rule);
            }
        }
        assert!(tracker.observe_facts(&facts, n as u64 + 1).is_none());
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
        let mut auditor = Auditor::new();
        let facts = auditor.audit_line(&line, &mut out).unwrap();
        prop_assert!(out.is_empty(), "{:?}", out);
        prop_assert!(facts.intervals().all(|(_, r)| r.is_some()));
    }
}

#[test]
fn seed_sample_line_is_clean() {
    let mut out = Vec::new();
    let mut auditor = Auditor::new();
    let facts = auditor.audit_line(SEED_SAMPLE, &mut out).unwrap();
    assert!(out.is_empty());
    assert_eq!(facts.intervals().count(), 2);
}

// ---------------------------------------------------------------------------
// `check` at archive scale, through the binary: chunks on several threads,
// the attempt horizon, the summary modes.

use std::process::{Command, Stdio};

fn check(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .arg("check")
        .args(["--policy", "policies/default.toml"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A corpus over several chunks: clean records, retries nearby, planted
/// per-record anomalies, attempt gaps and duplicates, escaped ids (the slow
/// path), malformed lines. Returns the text and, per line, the request and
/// attempt (None for lines the tracker never sees).
fn archive(seed: u64, n: usize) -> (String, Vec<Option<(u64, u64)>>) {
    let mut rng = Rng(seed);
    let mut text = String::new();
    let mut seen = Vec::new();
    let mut pending: Vec<(usize, u64, u64)> = Vec::new();
    let mut next_req = 0u64;
    for i in 0..n {
        let (req, attempt) = match pending.iter().position(|p| p.0 <= i) {
            Some(k) => {
                let p = pending.remove(k);
                (p.1, p.2)
            }
            None => {
                next_req += 1;
                match rng.below(20) {
                    0 => pending.push((i + 1 + rng.below(30) as usize, next_req, 2)),
                    1 => pending.push((i + 1 + rng.below(30) as usize, next_req, 3)),
                    2 => pending.push((i + 1 + rng.below(30) as usize, next_req, 1)),
                    _ => {}
                }
                (next_req, 1)
            }
        };
        let mut rec = clean_record(&mut rng, req, attempt);
        let roll = rng.below(40);
        let line = if roll < 13 {
            let rule = PER_RECORD_RULES[roll as usize];
            plant(rule, &mut rec);
            if rule.ends_with("schema_version") {
                // Without the v1 marker the line is not evidence at all.
                seen.push(None);
                text.push_str(&rec.to_string());
                text.push('\n');
                continue;
            }
            rec.to_string()
        } else if roll == 13 {
            // Same ids, written with an escape: the full path decodes them.
            rec.to_string().replace("\"tr_", "\"tr\\u005f")
        } else if roll == 14 {
            // Not JSON at all: never reaches the tracker.
            seen.push(None);
            text.push_str("{\"trace_id\": \n");
            continue;
        } else {
            rec.to_string()
        };
        seen.push(Some((req, attempt)));
        text.push_str(&line);
        text.push('\n');
    }
    (text, seen)
}

/// The tracker before the horizon: every request of the file kept, exactly:
/// the first lines of the requests not numbered 1..n, in line order.
fn unbounded_attempt_lines(seen: &[Option<(u64, u64)>]) -> Vec<u64> {
    let mut by_req: BTreeMap<u64, (u64, Vec<u64>)> = BTreeMap::new();
    for (i, s) in seen.iter().enumerate() {
        if let Some((req, a)) = s {
            by_req
                .entry(*req)
                .or_insert((i as u64 + 1, Vec::new()))
                .1
                .push(*a);
        }
    }
    let mut lines: Vec<u64> = by_req
        .into_values()
        .filter_map(|(line, mut a)| {
            a.sort_unstable();
            (!a.iter().zip(1u64..).all(|(&x, w)| x == w)).then_some(line)
        })
        .collect();
    lines.sort_unstable();
    lines
}

fn attempt_lines(stdout: &str) -> Vec<u64> {
    stdout
        .lines()
        .filter(|l| l.contains(": attempts_not_sequential: "))
        .map(|l| l.split(':').nth(1).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn parallel_check_prints_what_one_thread_prints_in_input_order() {
    let (text, seen) = archive(0x00a5_c17e, 3000);
    assert!(text.len() > 4 * 256 * 1024, "spans several chunks");
    let (code1, one, err1) = check(&["--jobs", "1"], text.as_bytes());
    assert_eq!(code1, 1, "{err1}");
    for jobs in ["2", "3", "0"] {
        let (code, many, err) = check(&["--jobs", jobs], text.as_bytes());
        assert_eq!((code, &err), (code1, &err1));
        assert_eq!(many, one, "--jobs {jobs}");
    }
    // Per-line findings in input order, then the end-of-file attempts.
    let numbers: Vec<u64> = one
        .lines()
        .map(|l| l.split(':').nth(1).unwrap().parse().unwrap())
        .collect();
    let per_line = numbers.len() - attempt_lines(&one).len();
    assert!(numbers[..per_line].windows(2).all(|w| w[0] <= w[1]));
    // The file fits the horizon: the cross-record findings are exactly the
    // unbounded tracker's, in its order.
    let want = unbounded_attempt_lines(&seen);
    assert!(want.len() > 50, "the corpus plants attempt problems");
    assert_eq!(attempt_lines(&one), want);
    assert!(
        one.lines()
            .rev()
            .take(want.len())
            .all(|l| l.contains("attempts_not_sequential"))
    );
    assert!(err1.starts_with("3000 records,"), "{err1}");
}

#[test]
fn attempts_past_the_horizon_behave_as_documented() {
    let mut rng = Rng(7);
    let rec = |rng: &mut Rng, req, a| clean_record(rng, req, a).to_string() + "\n";
    // Request 1: attempt 1, three others, attempt 2 (4 records apart).
    // Request 9: attempts 1 and 3 (a gap), then far from anything.
    // Lines 4 and 6 also carry a per-record finding, to pin where a finding
    // of a request leaving the horizon is printed: after line 5's.
    let mut text = rec(&mut rng, 9, 1) + &rec(&mut rng, 9, 3) + &rec(&mut rng, 1, 1);
    let mut fourth = clean_record(&mut rng, 2, 1);
    plant("missing_event", &mut fourth);
    text += &(fourth.to_string() + "\n");
    text += &rec(&mut rng, 3, 1);
    let mut sixth = clean_record(&mut rng, 4, 1);
    plant("duration_mismatch", &mut sixth);
    text += &(sixth.to_string() + "\n");
    text += &rec(&mut rng, 1, 2);
    // Within a horizon of 4 everything of request 1 is linked: only 9's gap.
    let (_, within, _) = check(&["--attempt-horizon", "4"], text.as_bytes());
    assert_eq!(attempt_lines(&within), vec![1]);
    assert!(
        within
            .lines()
            .last()
            .unwrap()
            .contains("attempts_not_sequential"),
        "at the end"
    );
    // With 3, request 1 is split: its late attempt 2 stands alone and is
    // reported at its own line (7), at the end; request 9 left the horizon
    // at line 5 and is reported right after line 5's findings (none), so
    // before the end-of-file findings.
    let (code, past, err) = check(&["--attempt-horizon", "3", "--jobs", "2"], text.as_bytes());
    assert_eq!(code, 1, "{err}");
    let order: Vec<(u64, &str)> = past
        .lines()
        .map(|l| {
            let mut parts = l.split(": ");
            let line = parts
                .next()
                .unwrap()
                .rsplit(':')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            (line, parts.next().unwrap())
        })
        .collect();
    assert_eq!(
        order,
        vec![
            (4, "missing_event"),
            (1, "attempts_not_sequential"),
            (6, "duration_mismatch"),
            (7, "attempts_not_sequential")
        ]
    );
    // A duplicate further apart than the horizon is missed (documented).
    let mut dup = rec(&mut rng, 5, 1);
    for r in 10..14 {
        dup += &rec(&mut rng, r, 1);
    }
    dup += &rec(&mut rng, 5, 1);
    let (code, out, _) = check(&["--attempt-horizon", "4"], dup.as_bytes());
    assert_eq!((code, attempt_lines(&out)), (0, vec![]));
    let (_, out, _) = check(&["--attempt-horizon", "5"], dup.as_bytes());
    assert_eq!(attempt_lines(&out), vec![1]);
    // The horizon must be at least one record.
    let (code, _, _) = check(&["--attempt-horizon", "0"], b"");
    assert_eq!(code, 2);
}

#[test]
fn each_input_has_its_own_attempt_tracker() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(11);
    let a = dir.path().join("a.jsonl");
    std::fs::write(&a, clean_record(&mut rng, 1, 1).to_string() + "\n").unwrap();
    // The same file twice: each copy is complete on its own.
    let p = a.to_str().unwrap();
    let (code, out, err) = check(&[p, p, "--jobs", "2"], b"");
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let b = dir.path().join("b.jsonl");
    std::fs::write(&b, clean_record(&mut rng, 1, 2).to_string() + "\n").unwrap();
    let (code, out, _) = check(&[p, b.to_str().unwrap()], b"");
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 1);
    assert!(out.starts_with(&format!("{}:1: attempts_not_sequential", b.display())));
}

#[test]
fn summary_modes() {
    let (text, _) = archive(0x5011, 400);
    let (_, sketch, _) = check(
        &["--summary", "--format", "json", "--evidence-only"],
        text.as_bytes(),
    );
    let (_, exact, _) = check(
        &[
            "--summary",
            "--exact",
            "--format",
            "json",
            "--evidence-only",
            "--jobs",
            "3",
        ],
        text.as_bytes(),
    );
    // The table is the `latency_summary` message, just before the closing
    // `summary` totals.
    let last = |s: &str| {
        let lines: Vec<Value> = s
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.last().unwrap()["type"], "summary", "{s}");
        lines[lines.len() - 2].clone()
    };
    let (sk, ex) = (last(&sketch), last(&exact));
    // Same groups, counts and names; quantiles close (rank conventions
    // differ by at most one value; the sketch adds 1%).
    assert_eq!(
        sk["groups"].as_array().unwrap().len(),
        ex["groups"].as_array().unwrap().len()
    );
    for (g, h) in sk["groups"]
        .as_array()
        .unwrap()
        .iter()
        .zip(ex["groups"].as_array().unwrap())
    {
        assert_eq!(g["records"], h["records"]);
        for (r, s) in g["intervals"]
            .as_array()
            .unwrap()
            .iter()
            .zip(h["intervals"].as_array().unwrap())
        {
            assert_eq!(
                (&r["name"], &r["reproduced"], &r["not_reproduced"]),
                (&s["name"], &s["reproduced"], &s["not_reproduced"])
            );
            if let (Some(a), Some(b)) = (r["median_ms"].as_f64(), s["median_ms"].as_f64()) {
                assert!((a - b).abs() / b < 0.25, "{a} vs {b}");
            } else {
                assert_eq!(r["median_ms"], s["median_ms"]);
            }
        }
    }
    // --exact needs --summary.
    let (code, _, err) = check(&["--exact"], b"");
    assert_eq!(code, 2, "{err}");
}
