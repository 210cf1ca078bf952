//! Interop with the real OpenTelemetry Python SDK: spans and a log record it
//! produced, encoded by its own OTLP encoder, in protobuf and OTLP/JSON
//! (`tests/data/otel-sdk/`, made by `scripts/otel_fixtures.py`; Python is
//! not needed to run these tests).

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use tracegate::Level;
use tracegate::Line;
use tracegate::Policy;
use tracegate::internals::record::otlp_proto::{decode_logs_protobuf, decode_traces_protobuf};
use tracegate::{Gate, Verdict};

use crate::cli::tracegate;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/otel-sdk");

/// Text of the SDK-made content attributes and log body.
const PROMPT_MARK: &str = "Where do I find my invoice history?";
const COMPLETION_MARK: &str = "top right of the console";

/// The interpreter named by `TRACEGATE_OTEL_PYTHON`, checked to import
/// `modules` (a Python import list). `None` when it is not set, which CI
/// never accepts (`.ci/run` sets it; elsewhere the tests that need it are
/// reported ignored, see `build.rs`).
pub fn python_with(modules: &str) -> Option<String> {
    let Ok(py) = std::env::var("TRACEGATE_OTEL_PYTHON") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run the OpenTelemetry SDK checks: .ci/run sets TRACEGATE_OTEL_PYTHON"
        );
        eprintln!("TRACEGATE_OTEL_PYTHON is not set: run scripts/otel-sdk-check.sh for this check");
        return None;
    };
    let ok = std::process::Command::new(&py)
        .args(["-c", &format!("import {modules}")])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "TRACEGATE_OTEL_PYTHON={py} cannot import {modules}");
    Some(py)
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(DATA).join(name)).unwrap()
}

fn json_line(name: &str) -> String {
    let text = String::from_utf8(read(name)).unwrap();
    assert_eq!(text.lines().count(), 1, "{name} must be one line");
    text.trim_end().to_string()
}

fn gate() -> Gate {
    Gate::new(Arc::new(
        Policy::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("policies/default.toml")).unwrap(),
    ))
}

/// What one judgement yields: the verdict, `(rule, field)` of every
/// finding, and the output (verbatim line or rebuilt record).
fn judge(line: &str, level: Level) -> (Verdict, Vec<(String, String)>, String) {
    let mut g = gate();
    let j = g.judge(1, &Line::Text(line.as_bytes()), level, true);
    let findings = g
        .findings()
        .iter()
        .map(|f| (f.rule.to_string(), f.field.clone().unwrap_or_default()))
        .collect();
    let out = match j.verdict {
        Verdict::Verbatim => line.to_string(),
        Verdict::Rewritten => String::from_utf8(g.output().to_vec()).unwrap(),
        _ => String::new(),
    };
    (j.verdict, findings, out)
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn sdk_traces_json_standard_projection_drops_content_and_names_the_place() {
    let line = json_line("traces.json");
    let (verdict, findings, out) = judge(&line, Level::Standard);
    assert_eq!(verdict, Verdict::Rewritten, "{findings:?}");
    let want = pairs(&[
        (
            "content_field",
            "resourceSpans[0].scopeSpans[0].spans[1].attributes[\"gen_ai.prompt\"]",
        ),
        (
            "content_field",
            "resourceSpans[0].scopeSpans[0].spans[1].attributes[\"gen_ai.completion\"]",
        ),
    ]);
    assert_eq!(findings, want);
    for mark in [
        "gen_ai.prompt",
        "gen_ai.completion",
        PROMPT_MARK,
        COMPLETION_MARK,
    ] {
        assert!(
            !out.contains(mark),
            "`{mark}` reached the standard projection"
        );
    }
    // The projection keeps the SDK's structure: both spans, their ids,
    // `flags`, `status`, scope, and the allowlisted attributes.
    let v: Value = serde_json::from_str(&out).unwrap();
    let spans = &v["resourceSpans"][0]["scopeSpans"][0]["spans"];
    assert_eq!(spans.as_array().unwrap().len(), 2);
    assert_eq!(spans[0]["traceId"], "5b8efff798038103d269b633813fc601");
    assert_eq!(spans[0]["flags"], 256);
    assert_eq!(spans[0]["attributes"].as_array().unwrap().len(), 6);
    assert_eq!(spans[1]["attributes"].as_array().unwrap().len(), 4);
    assert_eq!(
        v["resourceSpans"][0]["scopeSpans"][0]["scope"]["name"],
        "carbonforge.scheduler"
    );
    let resource = v["resourceSpans"][0]["resource"]["attributes"]
        .as_array()
        .unwrap();
    let keys: Vec<&str> = resource
        .iter()
        .map(|a| a["key"].as_str().unwrap())
        .collect();
    // The SDK's own resource attributes are on the default allowlist.
    assert_eq!(
        keys,
        [
            "telemetry.sdk.language",
            "telemetry.sdk.name",
            "telemetry.sdk.version",
            "service.instance.id",
            "service.name",
            "service.version"
        ]
    );
    // The projection is clean on a second pass.
    let (again, f2, _) = judge(&out, Level::Standard);
    assert_eq!((again, f2), (Verdict::Verbatim, vec![]));
}

#[test]
fn sdk_traces_json_full_level_keeps_content() {
    let line = json_line("traces.json");
    let (verdict, findings, out) = judge(&line, Level::Full);
    // Nothing to strip at full level: the SDK's output passes byte for byte.
    assert_eq!(verdict, Verdict::Verbatim, "{findings:?}");
    assert!(findings.is_empty());
    assert!(out.contains(PROMPT_MARK) && out.contains(COMPLETION_MARK));
}

#[test]
fn sdk_traces_protobuf_is_judged_like_its_json() {
    let from_pb = decode_traces_protobuf(&read("traces.pb")).unwrap();
    let from_json = json_line("traces.json");
    // Same request: the SDK's protobuf decodes to the OTLP/JSON the script
    // derived from it (compared as values: key order may differ).
    let a: Value = serde_json::from_str(&from_pb).unwrap();
    let b: Value = serde_json::from_str(&from_json).unwrap();
    assert_eq!(a, b, "protobuf decode differs from the SDK's OTLP/JSON");
    for level in [Level::Standard, Level::Full] {
        let (vp, fp, op) = judge(&from_pb, level);
        let (vj, fj, oj) = judge(&from_json, level);
        assert_eq!((vp, &fp), (vj, &fj), "{level:?}");
        let op: Value = serde_json::from_str(&op).unwrap();
        let oj: Value = serde_json::from_str(&oj).unwrap();
        assert_eq!(op, oj, "{level:?}: projections differ");
    }
}

#[test]
fn sdk_logs_body_is_content() {
    let line = json_line("logs.json");
    let from_pb = decode_logs_protobuf(&read("logs.pb")).unwrap();
    for l in [&line, &from_pb] {
        let (verdict, findings, out) = judge(l, Level::Standard);
        assert_ne!(verdict, Verdict::Verbatim);
        assert!(
            !out.contains(PROMPT_MARK),
            "a log body reached a standard sink"
        );
        assert!(
            findings.iter().any(|(rule, field)| rule == "content_field"
                && field == "resourceLogs[0].scopeLogs[0].logRecords[0].body"),
            "{findings:?}"
        );
    }
}

#[test]
fn sdk_traces_through_the_binary() {
    let path = format!("{DATA}/traces.json");
    let check = tracegate(
        &[
            "check",
            "--policy",
            "policies/default.toml",
            "--format",
            "json",
            &path,
        ],
        b"",
    );
    assert_eq!(check.code, 1, "{}", check.stderr);
    assert!(
        check
            .stdout
            .contains(r#"resourceSpans[0].scopeSpans[0].spans[1].attributes[\"gen_ai.prompt\"]"#)
    );
    for out in [&check.stdout, &check.stderr] {
        assert!(!out.contains(PROMPT_MARK) && !out.contains(COMPLETION_MARK));
    }
    let dir = tempfile::tempdir().unwrap();
    let policy = dir.path().join("policy.toml");
    std::fs::write(&policy, "[[sink]]\nname = \"trace-file\"\n").unwrap();
    let filter = tracegate(
        &[
            "filter",
            "--policy",
            policy.to_str().unwrap(),
            "--sink",
            "trace-file",
            &path,
        ],
        b"",
    );
    assert_eq!(filter.code, 0, "{}", filter.stderr);
    assert_eq!(filter.stdout.lines().count(), 1);
    assert!(!filter.stdout.contains(PROMPT_MARK) && !filter.stdout.contains("gen_ai.prompt"));
    assert!(filter.stdout.contains("chatcmpl-850f15e9afd74036-82d9d8e1"));
}

/// A content-free SDK export passes the default policy byte for byte: every
/// attribute the SDK adds on its own is on the default allowlist.
#[test]
fn sdk_clean_span_passes_the_default_policy_verbatim() {
    let mut v: Value = serde_json::from_str(&json_line("traces.json")).unwrap();
    v["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array_mut()
        .unwrap()
        .truncate(1);
    let line = serde_json::to_string(&v).unwrap();
    let (verdict, findings, _) = judge(&line, Level::Standard);
    assert_eq!(verdict, Verdict::Verbatim, "{findings:?}");
    assert!(findings.is_empty());
}
