//! OTLP structural fields under policy (issue 14 item 2, issue 22 item
//! 11), attacked: text in schema URLs, scope names and versions, event
//! names and trace state; free bits in `flags`; unbounded lists.

use std::path::Path;
use std::sync::Arc;

use crate::gate::{Gate, Verdict};
use crate::policy::Policy;
use crate::source::lines::Line;
use crate::window::Level;

fn run(policy: &str, line: &str) -> (Verdict, String, Vec<String>) {
    let p = Arc::new(Policy::from_toml(Path::new("p.toml"), policy).unwrap());
    let mut g = Gate::new(p);
    let j = g.judge(1, &Line::Text(line.as_bytes()), Level::Standard, true);
    let out = String::from_utf8(g.output().to_vec()).unwrap();
    let f = g
        .findings()
        .iter()
        .map(|f| format!("{}@{}", f.rule, f.field.as_deref().unwrap_or("-")))
        .collect();
    (j.verdict, out, f)
}

fn request(scope: &str, span_extra: &str, schema_url: &str) -> String {
    format!(
        r#"{{"resourceSpans":[{{"schemaUrl":"{schema_url}","scopeSpans":[{{"scope":{scope},"spans":[{{"name":"llm_request","attributes":[]{span_extra}}}]}}]}}]}}"#
    )
}

#[test]
fn real_sdk_structure_passes_verbatim() {
    for (scope, extra) in [
        (
            r#"{"name":"opentelemetry.instrumentation.openai","version":"0.47b0"}"#,
            "",
        ),
        (
            r#"{"name":"@opentelemetry/instrumentation-http","version":"0.53.0"}"#,
            "",
        ),
        (
            r#"{"name":"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp","version":"v0.53.0"}"#,
            "",
        ),
        (
            r#"{"name":"io.opentelemetry.spring-webmvc-6.0","version":"2.8.0-alpha"}"#,
            "",
        ),
        (
            r#"{"name":"OpenTelemetry.Instrumentation.AspNetCore","version":"1.9.0.0"}"#,
            "",
        ),
        (
            r#"{"name":"vllm"}"#,
            r#","events":[{"name":"gen_ai.content.prompt"},{"name":"gen_ai.client.inference.operation.details"},{"name":"exception"},{"name":"first_scheduled"}],"flags":769"#,
        ),
    ] {
        let line = request(scope, extra, "https://opentelemetry.io/schemas/1.26.0");
        let (v, _, f) = run("", &line);
        assert_eq!(v, Verdict::Verbatim, "{line}: {f:?}");
    }
}

#[test]
fn text_in_structural_strings_is_a_violation() {
    let url = "https://opentelemetry.io/schemas/1.26.0";
    for (line, rule) in [
        (
            request(
                r#"{"name":"x"}"#,
                "",
                "https://opentelemetry.io/schemas/my%20card%20is%204111",
            ),
            "pattern@resourceSpans[0].schemaUrl",
        ),
        (
            request(r#"{"name":"jane.doe@example.com"}"#, "", url),
            "pattern@resourceSpans[0].scopeSpans[0].scope.name",
        ),
        (
            request(
                r#"{"name":"x","version":"aGVsbG8gd29ybGQgbXkgc2VjcmV0"}"#,
                "",
                url,
            ),
            "pattern@resourceSpans[0].scopeSpans[0].scope.version",
        ),
        (
            request(
                r#"{"name":"x"}"#,
                r#","events":[{"name":"my-card-number-is-four-one-one"}]"#,
                url,
            ),
            "one_of@resourceSpans[0].scopeSpans[0].spans[0].events[0].name",
        ),
        (
            request(
                r#"{"name":"x"}"#,
                r#","events":[{"name":"call.me.at.five.five.five.one.two.three"}]"#,
                url,
            ),
            "one_of@resourceSpans[0].scopeSpans[0].spans[0].events[0].name",
        ),
    ] {
        let (v, _, f) = run("", &line);
        assert_eq!(v, Verdict::Dropped, "{line}");
        assert_eq!(f, vec![rule.to_string()], "{line}");
    }
    let log = r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"eventName":"the-customer-said-hello-there"}]}]}]}"#;
    let (v, _, f) = run("", log);
    assert_eq!(v, Verdict::Dropped, "{f:?}");
}

#[test]
fn trace_state_is_stripped_unless_its_keys_are_allowlisted() {
    let line =
        |ts: &str| format!(r#"{{"name":"llm_request","attributes":[],"traceState":"{ts}"}}"#);
    // Default: the whole state goes, with a finding per member.
    let (v, out, f) = run(
        "",
        &line("rojo=00f067aa0ba902b7,congo=jane.doe@example.com"),
    );
    assert_eq!(v, Verdict::Rewritten);
    assert_eq!(
        out,
        r#"{"name":"llm_request","attributes":[],"traceState":""}"#
    );
    assert_eq!(
        f,
        vec!["unknown_field@traceState", "unknown_field@traceState"]
    );
    // An allowlisted vendor key with a value rule stays; others go.
    let policy =
        "[standard.otlp.trace_state]\nrojo = { type = \"string\", pattern = '[0-9a-f]{16}' }\n";
    let (v, out, _) = run(policy, &line("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"));
    assert_eq!(v, Verdict::Rewritten);
    assert_eq!(
        out,
        r#"{"name":"llm_request","attributes":[],"traceState":"rojo=00f067aa0ba902b7"}"#
    );
    let (v, _, f) = run(policy, &line("rojo=00f067aa0ba902b7"));
    assert_eq!(v, Verdict::Verbatim, "{f:?}");
    // A value that breaks the rule drops the record.
    let (v, _, f) = run(policy, &line("rojo=4111111111111111"));
    assert_eq!(v, Verdict::Dropped);
    assert_eq!(f, vec!["detected_credit_card@traceState"]);
    let (v, _, f) = run(policy, &line("rojo=hello"));
    assert_eq!(v, Verdict::Dropped);
    assert_eq!(f, vec!["pattern@traceState"]);
}

#[test]
fn flags_keep_only_the_bits_otlp_defines() {
    let span = |flags: &str| format!(r#"{{"name":"llm_request","attributes":[],"flags":{flags}}}"#);
    for (flags, out) in [
        ("1", None),
        ("769", None),
        ("3", None),
        ("4294967295", Some("771")),
        ("1025", Some("1")),
        ("\"1028\"", Some("\"0\"")),
    ] {
        let (v, got, f) = run("", &span(flags));
        assert!(f.is_empty(), "{flags}: {f:?}");
        match out {
            None => assert_eq!(v, Verdict::Verbatim, "{flags}"),
            Some(o) => {
                assert_eq!(v, Verdict::Rewritten, "{flags}");
                assert_eq!(got, span(o));
            }
        }
    }
    let link = r#"{"name":"llm_request","attributes":[],"links":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","flags":65793}]}"#;
    let (v, got, _) = run("", link);
    assert_eq!(v, Verdict::Rewritten);
    assert!(got.contains(r#""flags":257"#), "{got}");
    let log = r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"flags":257}]}]}]}"#;
    let (v, got, _) = run("", log);
    assert_eq!(v, Verdict::Rewritten);
    assert!(got.contains(r#""flags":1"#), "{got}");
    let (v, _, f) = run("", &span("4294967296"));
    assert_eq!(v, Verdict::Dropped, "{f:?}");
}

#[test]
fn every_repeated_structure_is_bounded() {
    let policy = "[standard.otlp]\nmax_events = 2\nmax_links = 1\nmax_attributes = 2\nmax_spans = 1\nmax_scopes = 1\nmax_resources = 1\n";
    let ev = r#"{"name":"exception"}"#;
    let span = |extra: &str| format!(r#"{{"name":"llm_request","attributes":[]{extra}}}"#);
    let (v, _, _) = run(policy, &span(&format!(r#","events":[{ev},{ev}]"#)));
    assert_eq!(v, Verdict::Verbatim);
    for extra in [
        format!(r#","events":[{ev},{ev},{ev}]"#),
        r#","links":[{},{}]"#.to_string(),
    ] {
        let (v, _, f) = run(policy, &span(&extra));
        assert_eq!(v, Verdict::Dropped, "{extra}");
        assert!(f[0].starts_with("max_items@"), "{f:?}");
    }
    let attrs = r#"{"name":"llm_request","attributes":[{"key":"cf.queue_wait_s","value":{"doubleValue":1}},{"key":"cf.ttft_s","value":{"doubleValue":1}},{"key":"cf.e2e_latency_s","value":{"doubleValue":1}}]}"#;
    let (v, _, f) = run(policy, attrs);
    assert_eq!(v, Verdict::Dropped);
    assert_eq!(f, vec!["max_items@attributes"]);
    for line in [
        r#"{"resourceSpans":[{},{}]}"#,
        r#"{"resourceSpans":[{"scopeSpans":[{},{}]}]}"#,
        r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{},{}]}]}]}"#,
    ] {
        let (v, _, f) = run(policy, line);
        assert_eq!(v, Verdict::Dropped, "{line}");
        assert!(f[0].starts_with("max_items@"), "{f:?}");
    }
}
