//! Issue 30 items 1 and 2: under the default policy an identifier field
//! holds an identifier, not a sentence, and a span cannot be stuffed with
//! event names of free letters or with a hundred links. Through the real
//! binary: `check` refuses each record with a finding at the field, and
//! `filter` lets none of its text reach the standard sink. Real values
//! of the same fields (what SDKs and providers write) still pass, so the
//! refusals are not bought with real telemetry.

use std::path::Path;

use serde_json::{Value, json};

use super::cli::tracegate;

/// A span of the GenAI conventions' shape: `name`, string attributes,
/// and any extra members.
fn span(name: &str, attrs: &[(&str, &str)], extra: Value) -> Value {
    let attributes: Vec<Value> = attrs
        .iter()
        .map(|(k, v)| json!({"key": k, "value": {"stringValue": v}}))
        .collect();
    let mut s = json!({
        "traceId": "0102030405060708090a0b0c0d0e0f10",
        "spanId": "0102030405060708",
        "name": name,
        "kind": 3,
        "startTimeUnixNano": "1700000000000000000",
        "endTimeUnixNano": "1700000001000000000",
        "attributes": attributes,
    });
    if let (Value::Object(s), Value::Object(extra)) = (&mut s, extra) {
        s.extend(extra);
    }
    s
}

/// One export request holding `span`, with resource attributes `resource`
/// and scope `scope`.
fn request_with(span: Value, resource: &[(&str, &str)], scope: Value) -> String {
    let resource: Vec<Value> = resource
        .iter()
        .map(|(k, v)| json!({"key": k, "value": {"stringValue": v}}))
        .collect();
    json!({"resourceSpans": [{
        "resource": {"attributes": resource},
        "scopeSpans": [{"scope": scope, "spans": [span]}]
    }]})
    .to_string()
}

fn request(span: Value) -> String {
    request_with(
        span,
        &[("service.name", "genai-app")],
        json!({"name": "opentelemetry.instrumentation.openai_v2", "version": "2.1b0"}),
    )
}

/// `chat gpt-4o` with one attribute set to `value`.
fn attr(key: &str, value: &str) -> String {
    request(span(
        "chat gpt-4o",
        &[("gen_ai.operation.name", "chat"), (key, value)],
        json!({}),
    ))
}

/// The examples of issue 30 item 1, and their siblings in the other free
/// strings of the defaults: (what, record, the text that must not pass).
fn sentences() -> Vec<(&'static str, String, &'static str)> {
    let mut out = Vec::new();
    for (key, value) in [
        ("gen_ai.agent.name", "Jane Doe HIV positive"),
        (
            "server.address",
            "my-password-is-hunter2.my-diagnosis-is-hiv.call-me-at-four-one-five",
        ),
        ("error.type", "customer$jane$doe$asked$about$divorce"),
        (
            "gen_ai.tool.name",
            "jane_doe_asked_to_cancel_her_chemotherapy",
        ),
        (
            "gen_ai.request.model",
            "patient-jane-doe-dob-1970-01-01-diagnosis-hiv-positive",
        ),
        (
            "gen_ai.response.model",
            "patient-jane-doe-dob-1970-01-01-diagnosis-hiv-positive",
        ),
        // Siblings: the other names of the defaults.
        (
            "gen_ai.provider.name",
            "jane_doe.has_hiv.lives_at.elm_street",
        ),
        ("gen_ai.system", "jane_doe.has_hiv.lives_at.elm_street"),
        (
            "error.type",
            "jane-doe-asked-about-her-divorce-settlement-today",
        ),
    ] {
        out.push((key, attr(key, value), value));
    }
    out.push((
        "span name",
        request(span(
            "chat jane.doe.hiv.positive.lives.at.12.elm.street",
            &[("gen_ai.operation.name", "chat")],
            json!({}),
        )),
        "jane.doe.hiv",
    ));
    out.push((
        "span name (tool)",
        request(span(
            "execute_tool jane_doe_asked_to_cancel_her_chemotherapy",
            &[("gen_ai.operation.name", "execute_tool")],
            json!({}),
        )),
        "jane_doe_asked",
    ));
    let clean_span = || {
        span(
            "chat gpt-4o",
            &[("gen_ai.operation.name", "chat")],
            json!({}),
        )
    };
    let scope = json!({"name": "opentelemetry.instrumentation.openai_v2", "version": "2.1b0"});
    for (key, value) in [
        ("service.name", "jane.doe.hiv.positive.lives.at.elm"),
        ("service.version", "1.0.0-jane.doe.has.hiv"),
        ("telemetry.sdk.language", "jane_doe_has_hiv"),
        ("telemetry.sdk.name", "jane-doe-has-hiv-positive"),
        (
            "service.instance.id",
            "jane-doe-has-hiv-positive-lives-at-elm-street",
        ),
    ] {
        out.push((
            key,
            request_with(clean_span(), &[(key, value)], scope.clone()),
            value,
        ));
    }
    out.push((
        "scope version",
        request_with(
            clean_span(),
            &[],
            json!({"name": "openai", "version": "1.0.0-jane.doe.has.hiv"}),
        ),
        "jane.doe",
    ));
    out.push((
        "event name",
        request(span(
            "chat gpt-4o",
            &[],
            json!({"events": [{"timeUnixNano": "1700000000500000000", "name": "my.card.number.is.four.one.one"}]}),
        )),
        "my.card.number",
    ));
    out
}

/// What real SDKs and providers write in the same fields: they pass.
fn real_values() -> Vec<String> {
    let mut out = Vec::new();
    for (key, values) in [
        (
            "gen_ai.request.model",
            &[
                "gpt-4o",
                "gpt-4o-mini-2024-07-18",
                "gpt-4o-mini-realtime-preview-2024-12-17",
                "o3-mini-2025-01-31",
                "claude-3-5-sonnet-20241022",
                "us.anthropic.claude-3-5-sonnet-20241022-v2:0",
                "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
                "gemini-2.0-flash-thinking-exp-01-21",
                "models/gemini-1.5-pro-002",
                "meta-llama/Llama-3.1-8B-Instruct",
                "meta-llama/Meta-Llama-3.1-70B-Instruct",
                "unsloth/Meta-Llama-3.1-8B-Instruct-bnb-4bit",
                "nvidia/Llama-3.1-Nemotron-70B-Instruct-HF",
                "accounts/fireworks/models/llama-v3p1-405b-instruct",
                "mistralai/Mixtral-8x7B-Instruct-v0.1",
                "text-embedding-3-small",
                "llama3.1:8b-instruct-q4_K_M",
                "mistral:7b-instruct-v0.3-q5_K_M",
                "qwen2.5-coder:32b-instruct-q8_0",
                "@cf/meta/llama-3.1-8b-instruct",
            ][..],
        ),
        (
            "gen_ai.agent.name",
            &[
                "Math Tutor",
                "Triage Agent",
                "Customer Support Agent",
                "weather_agent",
                "research-assistant",
            ][..],
        ),
        (
            "gen_ai.tool.name",
            &[
                "get_weather",
                "get_current_weather",
                "transfer_to_refund_agent",
                "mcp__github__create_pull_request",
                "web_search_preview",
                "code_interpreter",
            ][..],
        ),
        (
            "server.address",
            &[
                "api.openai.com",
                "api.anthropic.com",
                "generativelanguage.googleapis.com",
                "us-central1-aiplatform.googleapis.com",
                "bedrock-runtime.us-east-1.amazonaws.com",
                "bedrock-runtime-fips.us-gov-west-1.amazonaws.com",
                "my-resource.openai.azure.com",
                "vllm-service.llm-serving.svc.cluster.local",
                "localhost",
                "10.0.12.7",
            ][..],
        ),
        (
            "error.type",
            &[
                "timeout",
                "_OTHER",
                "500",
                "openai.RateLimitError",
                "httpx.ConnectTimeout",
                "google.api_core.exceptions.ResourceExhausted",
                "java.net.SocketTimeoutException",
                "org.springframework.web.client.HttpClientErrorException$TooManyRequests",
                "software.amazon.awssdk.services.bedrockruntime.model.ThrottlingException",
                "System.Net.Http.HttpRequestException",
                "DEADLINE_EXCEEDED",
            ][..],
        ),
        (
            "gen_ai.provider.name",
            &[
                "openai",
                "aws.bedrock",
                "gcp.vertex_ai",
                "ibm.watsonx.ai",
                "azure.ai.inference",
            ][..],
        ),
    ] {
        for v in values {
            out.push(attr(key, v));
        }
    }
    for name in [
        "chat gpt-4o",
        "chat global.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "chat unsloth/Meta-Llama-3.1-8B-Instruct-bnb-4bit",
        "embeddings text-embedding-3-small",
        "execute_tool get_weather",
        "execute_tool mcp__github__create_pull_request",
        "invoke_agent math_tutor",
        "create_agent",
    ] {
        out.push(request(span(name, &[], json!({}))));
    }
    let scope = json!({"name": "opentelemetry.instrumentation.openai_v2", "version": "2.1b0"});
    for resource in [
        &[
            ("service.name", "carbonforge-scheduler"),
            ("service.version", "1.4.0"),
            (
                "service.instance.id",
                "627cc493-f310-47de-96bd-71410b7dec09",
            ),
            ("telemetry.sdk.name", "opentelemetry"),
            ("telemetry.sdk.language", "python"),
            ("telemetry.sdk.version", "1.27.0"),
        ][..],
        &[
            ("service.name", "checkout-service-prod"),
            ("service.version", "2024.10.1-rc1"),
            ("service.instance.id", "chat-gateway-7d9f8b6c5-xkzqb"),
            ("telemetry.sdk.language", "dotnet"),
            ("telemetry.sdk.version", "1.9.0.0"),
        ][..],
    ] {
        let clean = span("chat gpt-4o", &[], json!({}));
        out.push(request_with(clean, resource, scope.clone()));
    }
    // Events and links as SDKs write them.
    out.push(request(span(
        "chat gpt-4o",
        &[],
        json!({
            "events": [
                {"timeUnixNano": "1700000000500000000", "name": "gen_ai.content.prompt"},
                {"timeUnixNano": "1700000000600000000", "name": "gen_ai.content.completion"},
                {"timeUnixNano": "1700000000700000000", "name": "exception"}
            ],
            "links": [{"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "b7ad6b7169203331"}]
        }),
    )));
    out
}

/// A policy of the defaults and one standard sink, `trace-file`.
fn default_policy(dir: &std::path::Path) -> String {
    let p = dir.join("policy.toml");
    std::fs::write(&p, "version = 1\n[[sink]]\nname = \"trace-file\"\n").unwrap();
    p.to_str().unwrap().to_string()
}

/// The lines `check` reports a violation for.
fn violating_lines(policy: &str, input: &str) -> std::collections::BTreeSet<u64> {
    let c = tracegate(
        &["check", "--policy", policy, "--format", "json", "-"],
        input.as_bytes(),
    );
    assert!(matches!(c.code, 0 | 1), "{}", c.stderr);
    c.stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|f| f["kind"] == "violation")
        .filter_map(|f| f["line"].as_u64())
        .collect()
}

/// SECURITY (issue 30 item 1): every example of the issue, and its
/// siblings, is refused by `check` (a violation on its line) and `filter`
/// (none of its text reaches the standard sink); every real value passes
/// both, verbatim.
#[test]
fn identifier_fields_refuse_sentences_and_keep_real_names() {
    let dir = tempfile::tempdir().unwrap();
    let policy = default_policy(dir.path());
    assert_sentences_refused(&policy, "trace-file");

    let real = real_values();
    let input: String = real.iter().map(|r| format!("{r}\n")).collect();
    let refused = violating_lines(&policy, &input);
    let shown: Vec<&String> = refused.iter().map(|&l| &real[l as usize - 1]).collect();
    assert!(refused.is_empty(), "real values refused: {shown:#?}");
    let f = tracegate(
        &["filter", "--policy", &policy, "--sink", "trace-file"],
        input.as_bytes(),
    );
    assert_eq!(f.code, 0, "{}", f.stderr);
    assert_eq!(f.stdout, input);
}

/// SECURITY (issue 30): the GenAI file `policy init --otel-genai` writes
/// extends the defaults; a rule it wrote for a built-in name would replace
/// the built-in one whole, so it must not loosen any of them.
#[test]
fn the_otel_genai_starter_keeps_the_identifier_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("policy");
    let dir = dir.to_str().unwrap();
    let init = tracegate(&["policy", "init", "--otel-genai", "--dir", dir], b"");
    assert_eq!(init.code, 0, "{}", init.stderr);
    assert_sentences_refused(dir, "traces");
}

/// Every case of [`sentences`] is refused by `check` under `policy` and
/// none of its text reaches `sink` through `filter`.
fn assert_sentences_refused(policy: &str, sink: &str) {
    let attacks = sentences();
    let input: String = attacks.iter().map(|(_, r, _)| format!("{r}\n")).collect();
    let refused = violating_lines(policy, &input);
    let f = tracegate(
        &["filter", "--policy", policy, "--sink", sink],
        input.as_bytes(),
    );
    assert_eq!(f.code, 0, "{}", f.stderr);
    let mut passed = Vec::new();
    for (i, (what, _, text)) in attacks.iter().enumerate() {
        if !refused.contains(&(i as u64 + 1)) {
            passed.push(format!("{what}: `check` found no violation"));
        }
        if f.stdout.contains(text) {
            passed.push(format!("{what}: `filter` passed {text}"));
        }
    }
    assert!(passed.is_empty(), "{passed:#?}");
}

/// A span with `n` events named by `name(i)` and `links` links.
fn stuffed(n: usize, name: impl Fn(usize) -> String, links: usize) -> String {
    let events: Vec<Value> = (0..n)
        .map(|i| json!({"timeUnixNano": format!("17000000005{i:08}"), "name": name(i)}))
        .collect();
    let links: Vec<Value> = (0..links)
        .map(|i| json!({"traceId": format!("{:032x}", 0xfeed_0000_u64 + i as u64), "spanId": format!("{:016x}", 0xbeef_0000_u64 + i as u64)}))
        .collect();
    request(span(
        "chat gpt-4o",
        &[("gen_ai.operation.name", "chat")],
        json!({"events": events, "links": links}),
    ))
}

/// SECURITY (issue 30 item 2): a span stuffed with 128 events whose names
/// are free letters, with 128 events of a defined name, or with 128 links
/// carries kilobytes of chosen bits; under the defaults each is refused by
/// `check` and cut from what `filter` writes. What SDK spans carry (a few
/// events of the conventions' names, a link) passes (see the test above).
#[test]
fn a_span_stuffed_with_events_or_links_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let policy = default_policy(dir.path());
    let letters = |i: usize| {
        let w = |k: usize| {
            (0..16)
                .map(|j| char::from(b'a' + ((i * 7 + k * 3 + j) % 26) as u8))
                .collect::<String>()
        };
        format!("{}.{}.{}", w(0), w(1), w(2))
    };
    let cases = [
        ("128 events of free letters", stuffed(128, letters, 0)),
        (
            "128 exception events",
            stuffed(128, |_| "exception".into(), 0),
        ),
        ("128 links", stuffed(0, |_| String::new(), 128)),
        (
            "40 exception events",
            stuffed(40, |_| "exception".into(), 0),
        ),
        ("20 links", stuffed(0, |_| String::new(), 20)),
    ];
    let input: String = cases.iter().map(|(_, r)| format!("{r}\n")).collect();
    let refused = violating_lines(&policy, &input);
    let passed: Vec<&str> = (cases.iter().enumerate())
        .filter(|(i, _)| !refused.contains(&(*i as u64 + 1)))
        .map(|(_, (what, _))| *what)
        .collect();
    assert!(passed.is_empty(), "not refused: {passed:?}");
    let f = tracegate(
        &["filter", "--policy", &policy, "--sink", "trace-file"],
        input.as_bytes(),
    );
    assert_eq!(f.code, 0, "{}", f.stderr);
    for line in f.stdout.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let s = &v["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
        let events = s["events"].as_array().map_or(0, Vec::len);
        let links = s["links"].as_array().map_or(0, Vec::len);
        assert!(events <= 32 && links <= 8, "{events} events, {links} links");
    }
    assert!(!f.stdout.contains(&letters(0)));
}

/// Issue 35 item 8: what the `--otel-genai` starter's comments say holds
/// for the policy it writes: it re-states no built-in rule or list (a rule
/// written there replaces the built-in one whole; it once re-stated
/// `span_names`), and the span names its comments say pass do pass.
#[test]
fn the_otel_genai_starter_says_what_its_policy_does() {
    let starter: toml::Table = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("policies/starter/otel-genai.toml"),
    )
    .unwrap()
    .parse()
    .unwrap();
    let defaults: toml::Table = tracegate(&["policy", "print-default"], b"")
        .stdout
        .parse()
        .unwrap();
    // Every rule or value the starter sets must be one the defaults do
    // not: tables (not rules, which have a `type`) are walked side by side.
    fn restated(mine: &toml::Table, theirs: &toml::Table, at: &str, out: &mut Vec<String>) {
        for (k, v) in mine {
            let path = format!("{at}{k}");
            match (v, theirs.get(k)) {
                (toml::Value::Table(a), Some(toml::Value::Table(b))) if !a.contains_key("type") => {
                    restated(a, b, &format!("{path}."), out)
                }
                (_, Some(_)) => out.push(path),
                (_, None) => {}
            }
        }
    }
    let mut restated_keys = Vec::new();
    restated(&starter, &defaults, "", &mut restated_keys);
    assert!(
        restated_keys.is_empty(),
        "the starter re-states built-ins: {restated_keys:?}"
    );

    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("policy");
    let dir = dir.to_str().unwrap();
    let init = tracegate(&["policy", "init", "--otel-genai", "--dir", dir], b"");
    assert_eq!(init.code, 0, "{}", init.stderr);
    let names = [
        "chat",
        "chat gpt-4o",
        "execute_tool get_weather",
        "llm_request",
    ];
    let input: String = names
        .iter()
        .map(|n| format!("{}\n", request(span(n, &[], json!({})))))
        .collect();
    assert!(violating_lines(dir, &input).is_empty(), "{input}");
}
