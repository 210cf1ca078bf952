//! OTLP/JSON through the gate: the example spans, a Collector file-exporter
//! sample, a canary planted in every hiding place, and a property test
//! planting canaries at random places.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{Value, json};
use tracegate::Format;
use tracegate::Level;
use tracegate::Line;
use tracegate::Policy;
use tracegate::internals::record::tape::Tape;
use tracegate::{Gate, Judgement, Verdict};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/otlp");

/// Text content: has spaces and punctuation, so no identifier pattern
/// accepts it.
const CANARY: &str = "CANARY-7f3a: tell nobody my secret prompt";
const CANARY_MARK: &str = "CANARY-7f3a";
/// `CANARY-7f3a` in base64, as a bytesValue would carry it.
const CANARY_B64: &str = "Q0FOQVJZLTdmM2E=";

fn gate(policy: &str) -> Gate {
    Gate::new(Arc::new(
        Policy::from_toml(Path::new("p.toml"), policy).unwrap(),
    ))
}

fn drop_field() -> Gate {
    gate("[standard]\non_violation = \"drop_field\"\n")
}

/// Fresh gates on the default policy and on `drop_field`'s, from policies
/// compiled once: property cases test judging, not compiling a policy.
fn both_gates() -> [Gate; 2] {
    static POLICIES: std::sync::LazyLock<[Arc<Policy>; 2]> = std::sync::LazyLock::new(|| {
        ["", "[standard]\non_violation = \"drop_field\"\n"]
            .map(|t| Arc::new(Policy::from_toml(Path::new("p.toml"), t).unwrap()))
    });
    POLICIES.clone().map(Gate::new)
}

fn lines(name: &str) -> Vec<String> {
    std::fs::read_to_string(Path::new(DATA).join(name))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

struct Run {
    judged: Judgement,
    out: String,
    findings: String,
}

fn run(g: &mut Gate, line: &str, level: Level) -> Run {
    let judged = g.judge(7, &Line::Text(line.as_bytes()), level, true);
    let out = String::from_utf8(g.output().to_vec()).unwrap();
    let findings = g
        .findings()
        .iter()
        .map(|f| format!("{} {:?} {}\n", f.rule, f.field, f.message))
        .collect();
    Run {
        judged,
        out,
        findings,
    }
}

/// What a standard sink would receive.
fn delivered(r: &Run, line: &str) -> String {
    match r.judged.verdict {
        Verdict::Verbatim => line.to_string(),
        Verdict::Rewritten => r.out.clone(),
        // Dropped, Malformed: nothing goes out.
        _ => String::new(),
    }
}

/// The canary in any spelling: raw, unescaped by a JSON parser, or base64.
fn leaks(text: &str) -> bool {
    if text.contains(CANARY_MARK) || text.contains(CANARY_B64) {
        return true;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v) => v.to_string().contains(CANARY_MARK),
        Err(_) => false,
    }
}

/// The canary reaches neither the standard output nor a finding, under
/// both violation policies; a projection re-scans and is itself clean.
fn assert_contained(line: &str, place: &str) {
    for mut g in [gate(""), drop_field()] {
        let r = run(&mut g, line, Level::Standard);
        assert_eq!(
            r.judged.format.is_some(),
            r.judged.verdict != Verdict::Malformed
        );
        let out = delivered(&r, line);
        assert!(!leaks(&out), "{place}: canary in output {out}");
        assert!(
            !leaks(&r.findings),
            "{place}: canary in findings {}",
            r.findings
        );
        assert!(
            r.judged.verdict != Verdict::Verbatim,
            "{place}: passed verbatim"
        );
        assert!(!r.findings.is_empty(), "{place}: no finding");
        if r.judged.verdict == Verdict::Rewritten {
            assert_projection_is_clean(&mut g, &r.out, place);
        }
    }
}

/// A projection is valid JSON, still OTLP, and passes the gate unchanged.
fn assert_projection_is_clean(g: &mut Gate, out: &str, place: &str) {
    let mut tape = Tape::new();
    assert!(tape.scan(out.as_bytes()).is_ok(), "{place}: {out}");
    let again = run(g, out, Level::Standard);
    assert_eq!(
        again.judged.verdict,
        Verdict::Verbatim,
        "{place}: projection not clean: {}",
        again.findings
    );
    assert_eq!(again.judged.format, Some(Format::Otlp));
}

#[test]
fn seed_standard_span_passes_verbatim() {
    for line in lines("seed_standard.jsonl") {
        let mut g = gate("");
        let r = run(&mut g, &line, Level::Standard);
        assert_eq!(r.judged.verdict, Verdict::Verbatim, "{}", r.findings);
        assert!(!r.judged.has_content);
    }
}

#[test]
fn seed_full_spans_lose_their_content_at_standard_and_keep_it_at_full() {
    let want = lines("seed_full.standard.jsonl");
    for (line, want) in lines("seed_full.jsonl").iter().zip(want) {
        let mut g = gate("");
        let r = run(&mut g, line, Level::Standard);
        assert_eq!(r.judged.verdict, Verdict::Rewritten);
        assert!(r.judged.has_content);
        assert_eq!(r.judged.stripped, 2);
        assert_eq!(r.out, want);
        assert!(!r.findings.contains("billing"));
        let r = run(&mut g, line, Level::Full);
        assert_eq!(r.judged.verdict, Verdict::Verbatim, "{}", r.findings);
        assert!(r.judged.has_content);
    }
}

/// The vendor keys of the W3C examples the fixtures carry in
/// `traceState`, allowlisted with tight value rules; without this a trace
/// state is stripped at standard level.
const TRACE_STATE: &str = "[standard.otlp.trace_state]\nrojo = { type = \"string\", pattern = '[0-9a-f]{16}' }\ncongo = { type = \"string\", pattern = '[A-Za-z0-9]{1,16}' }\n";

#[test]
fn collector_export_sample_is_clean() {
    let all = lines("collector_export.jsonl");
    assert_eq!(all.len(), 2);
    for line in all {
        for level in [Level::Standard, Level::Full] {
            let mut g = gate(TRACE_STATE);
            let r = run(&mut g, &line, level);
            assert_eq!(r.judged.verdict, Verdict::Verbatim, "{}", r.findings);
            assert_eq!(r.judged.format, Some(Format::Otlp));
        }
    }
}

#[test]
fn content_matching_separates_indexed_content_from_metadata() {
    let attr = |key: &str| {
        json!({"name": "llm_request", "attributes": [
            {"key": key, "value": {"stringValue": "x"}}
        ]})
        .to_string()
    };
    let mut g = gate("");
    let r = run(&mut g, &attr("gen_ai.prompt.0.content"), Level::Standard);
    assert!(r.judged.has_content);
    assert!(r.findings.starts_with("content_field"), "{}", r.findings);
    let r = run(&mut g, &attr("gen_ai.prompt.name"), Level::Standard);
    assert!(!r.judged.has_content);
    assert!(r.findings.starts_with("unknown_field"), "{}", r.findings);
    let r = run(&mut g, &attr("gen_ai.prompt.name"), Level::Full);
    assert!(r.findings.starts_with("unknown_field"), "{}", r.findings);
    let r = run(
        &mut g,
        &attr("llm.input_messages.0.message.content"),
        Level::Full,
    );
    assert_eq!(r.judged.verdict, Verdict::Verbatim);
    assert!(r.judged.has_content);
}

// ---------------------------------------------------------------------------
// A canary in every hiding place.

fn clean_request() -> Value {
    json!({"resourceSpans": [{
        "resource": {"attributes": [
            {"key": "service.name", "value": {"stringValue": "carbonforge-scheduler"}}
        ]},
        "scopeSpans": [{
            "scope": {"name": "carbonforge.scheduler", "version": "1.4.0", "attributes": []},
            "spans": [{
                "traceId": "5b8efff798038103d269b633813fc60c",
                "spanId": "eee19b7ec3c1b174",
                "traceState": "rojo=00f067aa0ba902b7",
                "name": "llm_request",
                "kind": 1,
                "startTimeUnixNano": "1788450022633673216",
                "endTimeUnixNano": "1788450022799637248",
                "attributes": [
                    {"key": "cf.request_id", "value": {"stringValue": "chatcmpl-b8af6f4d"}},
                    {"key": "gen_ai.usage.prompt_tokens", "value": {"intValue": "54"}}
                ],
                "events": [{"timeUnixNano": "1788450022700000000", "name": "first_token", "attributes": []}],
                "links": [{"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "b7ad6b7169203331", "attributes": []}],
                "status": {"code": 1, "message": ""}
            }]
        }]
    }]})
}

fn clean_logs() -> Value {
    json!({"resourceLogs": [{
        "resource": {"attributes": []},
        "scopeLogs": [{
            "scope": {"name": "carbonforge.scheduler"},
            "logRecords": [{
                "timeUnixNano": "1788450022633673216",
                "severityNumber": 9,
                "severityText": "INFO",
                "eventName": "scheduler.admit",
                "attributes": []
            }]
        }]
    }]})
}

const SPAN: &str = "/resourceSpans/0/scopeSpans/0/spans/0";
const LOG: &str = "/resourceLogs/0/scopeLogs/0/logRecords/0";

fn set(mut v: Value, pointer: &str, value: Value) -> String {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let target = v.pointer_mut(parent).unwrap();
    match target {
        Value::Object(m) => {
            m.insert(key.to_string(), value);
        }
        Value::Array(a) => a.push(value),
        _ => panic!("bad pointer {pointer}"),
    }
    v.to_string()
}

fn str_attr(key: &str, s: &str) -> Value {
    json!({"key": key, "value": {"stringValue": s}})
}

fn hiding_places() -> Vec<(&'static str, String)> {
    let req = clean_request;
    let c = || Value::String(CANARY.into());
    let sa = |k: &str| str_attr(k, CANARY);
    let span_attrs = format!("{SPAN}/attributes/-");
    vec![
        (
            "span attribute not allowlisted",
            set(req(), &span_attrs, sa("app.note")),
        ),
        (
            "content attribute",
            set(req(), &span_attrs, sa("gen_ai.prompt")),
        ),
        (
            "indexed content attribute",
            set(req(), &span_attrs, sa("gen_ai.prompt.0.content")),
        ),
        (
            "openinference content",
            set(
                req(),
                &span_attrs,
                sa("llm.input_messages.0.message.content"),
            ),
        ),
        (
            "prompt metadata",
            set(req(), &span_attrs, sa("gen_ai.prompt.name")),
        ),
        (
            "resource attribute",
            set(
                req(),
                "/resourceSpans/0/resource/attributes/-",
                sa("host.note"),
            ),
        ),
        ("resource allowlisted attribute breaking its pattern", {
            let mut v = req();
            v["resourceSpans"][0]["resource"]["attributes"][0] = sa("service.name");
            v.to_string()
        }),
        (
            "scope attribute",
            set(
                req(),
                "/resourceSpans/0/scopeSpans/0/scope/attributes/-",
                sa("x"),
            ),
        ),
        (
            "scope name",
            set(req(), "/resourceSpans/0/scopeSpans/0/scope/name", c()),
        ),
        (
            "scope version",
            set(req(), "/resourceSpans/0/scopeSpans/0/scope/version", c()),
        ),
        ("span name", set(req(), &format!("{SPAN}/name"), c())),
        (
            "status message",
            set(req(), &format!("{SPAN}/status/message"), c()),
        ),
        (
            "trace state",
            set(
                req(),
                &format!("{SPAN}/traceState"),
                Value::String(format!("k={CANARY}")),
            ),
        ),
        ("trace id", set(req(), &format!("{SPAN}/traceId"), c())),
        (
            "parent span id",
            set(req(), &format!("{SPAN}/parentSpanId"), c()),
        ),
        (
            "timestamp",
            set(req(), &format!("{SPAN}/startTimeUnixNano"), c()),
        ),
        ("kind", set(req(), &format!("{SPAN}/kind"), c())),
        (
            "event name",
            set(req(), &format!("{SPAN}/events/0/name"), c()),
        ),
        (
            "event attribute",
            set(
                req(),
                &format!("{SPAN}/events/0/attributes/-"),
                sa("exception.message"),
            ),
        ),
        (
            "event content attribute",
            set(
                req(),
                &format!("{SPAN}/events/0/attributes/-"),
                sa("gen_ai.prompt"),
            ),
        ),
        (
            "link attribute",
            set(req(), &format!("{SPAN}/links/0/attributes/-"), sa("x")),
        ),
        (
            "link trace state",
            set(req(), &format!("{SPAN}/links/0/traceState"), c()),
        ),
        ("unknown span key", set(req(), &format!("{SPAN}/note"), c())),
        ("unknown top key", set(req(), "/note", c())),
        (
            "unknown resource key",
            set(req(), "/resourceSpans/0/resource/note", c()),
        ),
        ("schema url", set(req(), "/resourceSpans/0/schemaUrl", c())),
        (
            "non-object span",
            set(req(), "/resourceSpans/0/scopeSpans/0/spans/-", c()),
        ),
        ("attribute element extra member", {
            let mut v = req();
            v.pointer_mut(&format!("{SPAN}/attributes/0")).unwrap()["note"] = c();
            v.to_string()
        }),
        ("attribute value extra member", {
            let mut v = req();
            v.pointer_mut(&format!("{SPAN}/attributes/0/value"))
                .unwrap()["note"] = c();
            v.to_string()
        }),
        (
            "nested arrayValue under allowlisted key",
            set(
                req(),
                &span_attrs,
                json!(
            {"key": "cf.scheduler.family", "value": {"arrayValue": {"values": [{"stringValue": CANARY}]}}}),
            ),
        ),
        (
            "nested kvlistValue under allowlisted key",
            set(
                req(),
                &span_attrs,
                json!(
            {"key": "cf.scheduler.family", "value": {"kvlistValue": {"values": [{"key": "a", "value": {"stringValue": CANARY}}]}}}),
            ),
        ),
        (
            "bytesValue under allowlisted key",
            set(
                req(),
                &span_attrs,
                json!(
            {"key": "cf.scheduler.family", "value": {"bytesValue": CANARY_B64}}),
            ),
        ),
        (
            "duplicate attribute key",
            set(req(), &span_attrs, sa("cf.request_id")),
        ),
        ("string where an int is expected", {
            let mut v = req();
            *v.pointer_mut(&format!("{SPAN}/attributes/1")).unwrap() =
                sa("gen_ai.usage.prompt_tokens");
            v.to_string()
        }),
        ("string in intValue", {
            let mut v = req();
            *v.pointer_mut(&format!("{SPAN}/attributes/1/value/intValue"))
                .unwrap() = c();
            v.to_string()
        }),
        (
            "escaped key spelling",
            set(req(), &span_attrs, sa("gen_ai.prompt"))
                .replace("\"gen_ai.prompt\"", "\"gen_ai\\u002eprompt\""),
        ),
        (
            "escaped canary in content",
            set(req(), &span_attrs, sa("gen_ai.prompt")).replace("CANARY-", "CANARY\\u002d"),
        ),
        (
            "log body",
            set(
                clean_logs(),
                &format!("{LOG}/body"),
                json!({"stringValue": CANARY}),
            ),
        ),
        (
            "log body kvlist",
            set(
                clean_logs(),
                &format!("{LOG}/body"),
                json!(
            {"kvlistValue": {"values": [{"key": "msg", "value": {"stringValue": CANARY}}]}}),
            ),
        ),
        (
            "log attribute",
            set(clean_logs(), &format!("{LOG}/attributes/-"), sa("log.note")),
        ),
        (
            "log severity text",
            set(clean_logs(), &format!("{LOG}/severityText"), c()),
        ),
        (
            "log event name",
            set(clean_logs(), &format!("{LOG}/eventName"), c()),
        ),
        (
            "bare span attribute",
            json!({"name": "llm_request", "attributes": [sa("user.input")]}).to_string(),
        ),
        (
            "bare span name",
            json!({"name": CANARY, "attributes": []}).to_string(),
        ),
    ]
}

#[test]
fn clean_templates_pass_verbatim() {
    for v in [clean_request(), clean_logs()] {
        let line = v.to_string();
        let mut g = gate(TRACE_STATE);
        let r = run(&mut g, &line, Level::Standard);
        assert_eq!(r.judged.verdict, Verdict::Verbatim, "{}", r.findings);
    }
}

#[test]
fn a_canary_in_any_hiding_place_never_reaches_a_standard_sink() {
    for (place, line) in hiding_places() {
        assert!(
            line.contains(CANARY_MARK)
                || line.contains("CANARY\\u002d")
                || line.contains(CANARY_B64),
            "{place}"
        );
        assert_contained(&line, place);
    }
}

#[test]
fn findings_name_the_place_precisely() {
    let line = set(
        clean_request(),
        &format!("{SPAN}/events/0/attributes/-"),
        str_attr("gen_ai.prompt", CANARY),
    );
    let mut g = gate(TRACE_STATE);
    let r = run(&mut g, &line, Level::Standard);
    assert_eq!(g.findings().len(), 1);
    assert_eq!(
        g.findings()[0].field.as_deref(),
        Some(r#"resourceSpans[0].scopeSpans[0].spans[0].events[0].attributes["gen_ai.prompt"]"#)
    );
    assert_eq!(r.judged.verdict, Verdict::Rewritten);
}

#[test]
fn duplicate_attribute_key_is_malformed_and_forwards_nothing() {
    let line = set(
        clean_request(),
        &format!("{SPAN}/attributes/-"),
        str_attr("cf.request_id", CANARY),
    );
    for level in [Level::Standard, Level::Full] {
        let mut g = gate("");
        let r = run(&mut g, &line, level);
        assert_eq!(r.judged.verdict, Verdict::Malformed);
        assert!(r.out.is_empty());
        assert_eq!(g.findings().len(), 1);
        assert_eq!(g.findings()[0].rule, "duplicate_key");
    }
}

// ---------------------------------------------------------------------------
// Property: canaries planted at random places never reach a standard sink.

/// A slot of a generated request, with or without a canary.
#[derive(Debug, Clone)]
enum Slot {
    Clean,
    Canary(u8),
}

fn slot() -> impl Strategy<Value = Slot> {
    prop_oneof![3 => Just(Slot::Clean), 1 => (0u8..16).prop_map(Slot::Canary)]
}

/// Put a canary at place `which` of the span, resource or scope.
fn plant(which: u8, res: &mut Value, scope: &mut Value, span: &mut Value) {
    let c = Value::String(CANARY.into());
    let sa = |k: &str| str_attr(k, CANARY);
    let push = |v: &mut Value, key: &str, item: Value| {
        if !v[key].is_array() {
            v[key] = json!([]);
        }
        v[key].as_array_mut().unwrap().push(item);
    };
    match which {
        0 => push(span, "attributes", sa("app.user_input")),
        1 => push(span, "attributes", sa("gen_ai.prompt")),
        2 => push(span, "attributes", sa("gen_ai.completion.3.content")),
        3 => push(res, "attributes", sa("process.command_line")),
        4 => push(scope, "attributes", sa("scope.note")),
        5 => scope["name"] = c,
        6 => span["name"] = c,
        7 => span["status"] = json!({"code": 2, "message": CANARY}),
        8 => span["traceState"] = Value::String(format!("a={CANARY}")),
        9 => push(span, "events", json!({"name": CANARY})),
        10 => push(
            span,
            "events",
            json!({"name": "e", "attributes": [sa("exception.stacktrace")]}),
        ),
        11 => push(
            span,
            "links",
            json!({"spanId": "b7ad6b7169203331", "attributes": [sa("x")]}),
        ),
        12 => push(
            span,
            "attributes",
            json!({"key": "cf.request_id", "value": {"kvlistValue": {"values": [sa("a")]}}}),
        ),
        13 => push(
            span,
            "attributes",
            json!({"key": "cf.queue_wait_s", "value": {"stringValue": CANARY}}),
        ),
        14 => push(span, "links", json!({"traceState": format!("k={CANARY}")})),
        _ => span["note"] = c,
    }
}

fn generated_request(spans: Vec<Vec<Slot>>) -> Value {
    let mut resource = json!({"attributes": [str_attr("service.name", "svc")]});
    let mut scope = json!({"name": "carbonforge.scheduler"});
    let mut out = Vec::new();
    for (i, slots) in spans.into_iter().enumerate() {
        let mut span = json!({
            "traceId": "5b8efff798038103d269b633813fc60c",
            "spanId": format!("{:016x}", i + 1),
            "name": "llm_request",
            "kind": 1,
            "startTimeUnixNano": "1788450022633673216",
            "attributes": [{"key": "gen_ai.usage.prompt_tokens", "value": {"intValue": i.to_string()}}]
        });
        for s in slots {
            if let Slot::Canary(which) = s {
                plant(which, &mut resource, &mut scope, &mut span);
            }
        }
        out.push(span);
    }
    json!({"resourceSpans": [{"resource": resource, "scopeSpans": [{"scope": scope, "spans": out}]}]})
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn planted_canaries_never_reach_standard_output_or_findings(
        spans in prop::collection::vec(prop::collection::vec(slot(), 0..4), 1..4)
    ) {
        let planted = spans.iter().flatten().any(|s| matches!(s, Slot::Canary(_)));
        let line = generated_request(spans).to_string();
        for mut g in both_gates() {
            let r = run(&mut g, &line, Level::Standard);
            let out = delivered(&r, &line);
            prop_assert!(!leaks(&out), "canary in output {}", out);
            prop_assert!(!leaks(&r.findings), "canary in findings {}", r.findings);
            if planted {
                prop_assert!(r.judged.verdict != Verdict::Verbatim);
            } else {
                prop_assert_eq!(r.judged.verdict, Verdict::Verbatim, "{}", r.findings);
            }
            if r.judged.verdict == Verdict::Rewritten {
                let again = run(&mut g, &r.out, Level::Standard);
                prop_assert_eq!(again.judged.verdict, Verdict::Verbatim, "{}", again.findings);
            }
        }
    }

    #[test]
    fn at_full_level_only_content_attributes_carry_the_canary(
        spans in prop::collection::vec(prop::collection::vec(slot(), 0..4), 1..4)
    ) {
        // Slots 1 and 2 plant content attributes; every other slot is a
        // place that stays allowlisted at full level too.
        let content = spans
            .iter()
            .flatten()
            .any(|s| matches!(s, Slot::Canary(1 | 2)));
        let line = generated_request(spans).to_string();
        for mut g in both_gates() {
            let r = run(&mut g, &line, Level::Full);
            prop_assert!(!leaks(&r.findings), "canary in findings {}", r.findings);
            if !content {
                let out = delivered(&r, &line);
                prop_assert!(!leaks(&out), "canary in full output {}", out);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Protobuf round trips.

mod protobuf {
    use prost::Message;
    use tracegate::internals::record::otlp_proto::oracle::{
        ExportLogsServiceRequest, ExportTraceServiceRequest,
    };
    use tracegate::internals::record::otlp_proto::{
        decode_logs_protobuf, decode_traces_protobuf, encode_logs_protobuf, encode_traces_protobuf,
    };

    use super::*;

    /// Wrap a bare span into a request.
    fn wrap(span: &str) -> String {
        let span: Value = serde_json::from_str(span).unwrap();
        json!({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}).to_string()
    }

    fn round_trip(line: &str) -> String {
        let pb = encode_traces_protobuf(line).unwrap();
        let json = decode_traces_protobuf(&pb).unwrap();
        // Stable after one trip: the second encoding is byte-identical.
        let pb2 = encode_traces_protobuf(&json).unwrap();
        assert_eq!(pb, pb2);
        json
    }

    #[test]
    fn seeds_and_collector_sample_round_trip_and_stay_clean() {
        let mut all: Vec<String> = lines("seed_standard.jsonl")
            .iter()
            .map(|l| wrap(l))
            .collect();
        all.extend(lines("seed_full.jsonl").iter().map(|l| wrap(l)));
        all.push(lines("collector_export.jsonl")[0].clone());
        for line in all {
            let json = round_trip(&line);
            let mut original: Value = serde_json::from_str(&line).unwrap();
            let back: Value = serde_json::from_str(&json).unwrap();
            strip_defaults(&mut original);
            assert_eq!(original, back);
            let mut g = gate("");
            let a = run(&mut g, &line, Level::Full);
            let b = run(&mut g, &json, Level::Full);
            assert_eq!(a.judged.verdict, b.judged.verdict);
        }
    }

    #[test]
    fn standard_projections_decode_into_the_protobuf_types() {
        let mut projected = 0;
        for (place, line) in hiding_places() {
            if !line.contains("resourceSpans") {
                continue;
            }
            let mut g = drop_field();
            let r = run(&mut g, &line, Level::Standard);
            if r.judged.verdict != Verdict::Rewritten {
                continue;
            }
            projected += 1;
            let pb = encode_traces_protobuf(&r.out).unwrap_or_else(|e| panic!("{place}: {e}"));
            let req = ExportTraceServiceRequest::decode(pb.as_slice()).unwrap();
            assert_eq!(req.resource_spans.len(), 1, "{place}");
            let json = decode_traces_protobuf(&pb).unwrap();
            assert!(!leaks(&json), "{place}");
        }
        assert!(projected > 20, "{projected}");
    }

    #[test]
    fn logs_round_trip_and_log_projections_decode() {
        let line = lines("collector_export.jsonl")[1].clone();
        let pb = encode_logs_protobuf(&line).unwrap();
        let json = decode_logs_protobuf(&pb).unwrap();
        let mut original: Value = serde_json::from_str(&line).unwrap();
        strip_defaults(&mut original);
        assert_eq!(original, serde_json::from_str::<Value>(&json).unwrap());
        for (place, line) in hiding_places() {
            if !line.contains("resourceLogs") {
                continue;
            }
            let mut g = drop_field();
            let r = run(&mut g, &line, Level::Standard);
            assert_eq!(r.judged.verdict, Verdict::Rewritten, "{place}");
            let pb = encode_logs_protobuf(&r.out).unwrap();
            let req = ExportLogsServiceRequest::decode(pb.as_slice()).unwrap();
            assert_eq!(req.resource_logs.len(), 1, "{place}");
            assert!(!leaks(&decode_logs_protobuf(&pb).unwrap()), "{place}");
        }
    }

    /// An enum number outside its defined values (negative, or past the
    /// last name) is refused from protobuf exactly as the same number in
    /// OTLP/JSON is (a `one_of` violation), by serve's decode and by the
    /// prost path alike; it never becomes the default 0, which passes.
    #[test]
    fn protobuf_enums_outside_their_values_are_refused_as_in_json() {
        use tracegate::internals::record::otlp_proto::oracle::{
            LogRecord, ResourceLogs, ResourceSpans, ScopeLogs, ScopeSpans, Span, Status,
            decode_logs_prost, decode_traces_prost,
        };
        let traces = |kind: i32, code: i32| {
            let span = Span {
                name: "llm_request".into(),
                kind,
                status: Some(Status {
                    message: String::new(),
                    code,
                }),
                ..Span::default()
            };
            let req = ExportTraceServiceRequest {
                resource_spans: vec![ResourceSpans {
                    scope_spans: vec![ScopeSpans {
                        spans: vec![span],
                        ..ScopeSpans::default()
                    }],
                    ..ResourceSpans::default()
                }],
            };
            let pb = req.encode_to_vec();
            // As OTLP/JSON writes it: a 0 (the default) is omitted.
            let member = |k: &str, n: i32| {
                if n == 0 {
                    String::new()
                } else {
                    format!(r#","{k}":{n}"#)
                }
            };
            let json = format!(
                r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{{"name":"llm_request"{},"status":{{{}}}}}]}}]}}]}}"#,
                member("kind", kind),
                member("code", code).trim_start_matches(',')
            );
            let prost = String::from_utf8(decode_traces_prost(&pb).unwrap()).unwrap();
            (decode_traces_protobuf(&pb).unwrap(), prost, json)
        };
        let logs = |severity: i32| {
            let req = ExportLogsServiceRequest {
                resource_logs: vec![ResourceLogs {
                    scope_logs: vec![ScopeLogs {
                        log_records: vec![LogRecord {
                            severity_number: severity,
                            ..LogRecord::default()
                        }],
                        ..ScopeLogs::default()
                    }],
                    ..ResourceLogs::default()
                }],
            };
            let pb = req.encode_to_vec();
            let json = if severity == 0 {
                r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{}]}]}]}"#.to_string()
            } else {
                format!(
                    r#"{{"resourceLogs":[{{"scopeLogs":[{{"logRecords":[{{"severityNumber":{severity}}}]}}]}}]}}"#
                )
            };
            let prost = String::from_utf8(decode_logs_prost(&pb).unwrap()).unwrap();
            (decode_logs_protobuf(&pb).unwrap(), prost, json)
        };
        let mut cases = Vec::new();
        for kind in [-1, -2, i32::MIN, 6, 7, i32::MAX] {
            cases.push((format!("kind {kind}"), traces(kind, 0), false));
        }
        for code in [-1, i32::MIN, 3, i32::MAX] {
            cases.push((format!("status.code {code}"), traces(1, code), false));
        }
        for severity in [-1, i32::MIN, 25, i32::MAX] {
            cases.push((format!("severityNumber {severity}"), logs(severity), false));
        }
        // The defined values pass, so the refusals above are about the
        // number and nothing else.
        for kind in 0..=5 {
            cases.push((format!("kind {kind}"), traces(kind, 2), true));
        }
        for severity in 0..=24 {
            cases.push((format!("severityNumber {severity}"), logs(severity), true));
        }
        for (what, (served, prost, json), ok) in cases {
            assert_eq!(served, prost, "{what}: serve's decode is not prost's");
            assert_eq!(served, json, "{what}: the decode is not the OTLP/JSON line");
            let mut g = gate("");
            let from_json = run(&mut g, &json, Level::Standard);
            let from_pb = run(&mut g, &served, Level::Standard);
            let want = if ok {
                Verdict::Verbatim
            } else {
                Verdict::Dropped
            };
            assert_eq!(
                from_pb.judged.verdict, want,
                "{what}: {served} {}",
                from_pb.findings
            );
            assert_eq!(from_json.judged.verdict, want, "{what}: {json}");
            assert_eq!(from_pb.findings, from_json.findings, "{what}");
            if !ok {
                assert!(
                    from_pb.findings.starts_with("one_of "),
                    "{what}: {}",
                    from_pb.findings
                );
                // Under `drop_field` the number is removed, not zeroed.
                let mut g = drop_field();
                let r = run(&mut g, &served, Level::Standard);
                assert_eq!(r.judged.verdict, Verdict::Rewritten, "{what}");
                assert_eq!(r.out, run(&mut g, &json, Level::Standard).out, "{what}");
            }
        }
    }

    /// Remove what proto3 JSON omits: empty strings, zeros, empty arrays.
    fn strip_defaults(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.retain(|_, x| {
                    !matches!(x, Value::String(s) if s.is_empty())
                        && !matches!(x, Value::Array(a) if a.is_empty())
                        && x.as_u64() != Some(0)
                });
                m.values_mut().for_each(strip_defaults);
            }
            Value::Array(a) => a.iter_mut().for_each(strip_defaults),
            _ => {}
        }
    }
}
