//! The OTLP fast path against the full path: generated export requests,
//! with the mutations an attacker (or an odd SDK) would try, must get the
//! same judgement, findings and projection either way.

use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;

use super::fast::{Context, FastOtlp};
use crate::finding::{Finding, Rule};
use crate::gate::detect::Detectors;
use crate::gate::{Gate, Verdict};
use crate::policy::Policy;
use crate::source::lines::Line;
use crate::window::Level;

pub(super) fn policy() -> Arc<Policy> {
    Arc::new(Policy::from_toml(Path::new("p.toml"), "version = 1\n").unwrap())
}

/// What the fast path alone makes of `line` (a fresh one each time).
fn fast_alone(p: &Policy, line: &[u8], project: bool) -> Option<(u32, bool, Vec<String>)> {
    let detectors = Detectors::shared(p.redaction().standard_detectors());
    let mut findings = Vec::new();
    let cx = Context {
        policy: p,
        detectors: &detectors,
        line: 7,
        project,
        findings: true,
        paths: true,
    };
    let taken = FastOtlp::default().judge(cx, line, &mut findings)?;
    let shown = findings.iter().map(|f| format!("{f:?}")).collect();
    Some((taken.stripped, taken.has_content, shown))
}

/// An SDK's batch: one resource, one scope, a span with content.
const SDK: &str = r#"{"resourceSpans": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "chat-gateway"}}, {"key": "telemetry.sdk.language", "value": {"stringValue": "python"}}]}, "scopeSpans": [{"scope": {"name": "opentelemetry.instrumentation.openai_v2", "version": "2.1b0"}, "spans": [{"traceId": "f4aea2076618ad4584a288e97cab3d90", "spanId": "8032c115fe5d2a15", "name": "chat gpt-4o", "kind": 3, "startTimeUnixNano": "1788450022633673216", "endTimeUnixNano": "1788450023952915767", "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}}, {"key": "gen_ai.request.model", "value": {"stringValue": "gpt-4o"}}, {"key": "gen_ai.request.temperature", "value": {"doubleValue": 0.2}}, {"key": "gen_ai.usage.input_tokens", "value": {"intValue": "811"}}, {"key": "server.port", "value": {"intValue": 443}}, {"key": "gen_ai.prompt", "value": {"stringValue": "system\nYou are the billing assistant.\nuser\nmy card is 4111 1111 1111 1111"}}, {"key": "gen_ai.completion", "value": {"stringValue": "Sure."}}], "status": {}}]}]}]}"#;

#[test]
fn an_sdk_batch_with_content_is_judged_in_one_pass() {
    let p = policy();
    let (stripped, has_content, findings) = fast_alone(&p, SDK.as_bytes(), false).unwrap();
    assert_eq!((stripped, has_content), (2, true));
    assert_eq!(findings.len(), 2);
    assert!(
        findings[0]
            .contains(r#"resourceSpans[0].scopeSpans[0].spans[0].attributes["gen_ai.prompt"]"#),
        "{findings:?}"
    );
    // Never the value: the canary in the prompt is nowhere in a finding.
    assert!(findings.iter().all(|f| !f.contains("4111")));
    // A caller that needs the projection of this spaced line gets the
    // full path (which writes projections compact); of the compact line,
    // the fast path writes it, the same bytes as the full path.
    assert_eq!(fast_alone(&p, SDK.as_bytes(), true), None);
    let compact = SDK
        .replace(", {", ",{")
        .replace("\", \"", "\",\"")
        .replace(": ", ":")
        .replace(", \"", ",\"");
    assert!(
        fast_alone(&p, compact.as_bytes(), true).is_some(),
        "{compact}"
    );
    let mut fast = Gate::new(p.clone());
    let mut slow = Gate::new(p.clone());
    slow.disable_otlp_fast_path();
    let line = Line::Text(compact.as_bytes());
    assert_eq!(
        fast.judge(1, &line, Level::Standard, true),
        slow.judge(1, &line, Level::Standard, true)
    );
    assert_eq!(fast.output(), slow.output());
    assert!(!fast.output().is_empty());
    assert!(!String::from_utf8_lossy(fast.output()).contains("4111"));
    // Without the content, it passes verbatim, projection or not.
    let clean = SDK.replace(r#", {"key": "gen_ai.prompt", "value": {"stringValue": "system\nYou are the billing assistant.\nuser\nmy card is 4111 1111 1111 1111"}}, {"key": "gen_ai.completion", "value": {"stringValue": "Sure."}}"#, "");
    assert_eq!(
        fast_alone(&p, clean.as_bytes(), true),
        Some((0, false, vec![]))
    );
}

/// Requests with content where cutting bytes out could go wrong: content
/// and unknown attributes first, last, alone, side by side and between
/// kept ones (every ordered choice of up to four of five attributes that
/// holds a canary), in every attribute list of a span request (resource,
/// span, event, link, and a second span without events); and a log body
/// and an unknown log attribute as a record's first, middle or last
/// member. Every line is compact, so the fast path projects it.
fn content_in_every_place() -> Vec<String> {
    let attrs: [&str; 5] = [
        r#"{"key":"gen_ai.request.model","value":{"stringValue":"gpt-4o"}}"#,
        r#"{"key":"gen_ai.usage.input_tokens","value":{"intValue":"811"}}"#,
        r#"{"key":"gen_ai.prompt","value":{"stringValue":"CANARY prompt"}}"#,
        r#"{"key":"gen_ai.completion","value":{"stringValue":"CANARY completion"}}"#,
        r#"{"key":"app.note","value":{"stringValue":"CANARY note"}}"#,
    ];
    let mut lists: Vec<Vec<usize>> = vec![vec![]];
    for _ in 0..4 {
        let longer: Vec<Vec<usize>> = lists
            .iter()
            .flat_map(|l| {
                (0..attrs.len())
                    .filter(|i| !l.contains(i))
                    .map(move |i| [l.clone(), vec![i]].concat())
            })
            .collect();
        lists.extend(longer);
    }
    lists.retain(|l| l.iter().any(|&i| i >= 2));
    lists.dedup();
    let list = |l: &[usize]| l.iter().map(|&i| attrs[i]).collect::<Vec<_>>().join(",");
    let mut lines = Vec::new();
    for l in &lists {
        let a = list(l);
        lines.push(format!(
            r#"{{"resourceSpans":[{{"resource":{{"attributes":[{a}]}},"scopeSpans":[{{"scope":{{"name":"vllm"}},"spans":[{{"traceId":"f4aea2076618ad4584a288e97cab3d90","spanId":"8032c115fe5d2a15","name":"llm_request","kind":2,"attributes":[{a}],"events":[{{"name":"first_token","attributes":[{a}]}}],"links":[{{"traceId":"f4aea2076618ad4584a288e97cab3d90","spanId":"8032c115fe5d2a16","attributes":[{a}]}}],"status":{{}}}},{{"traceId":"f4aea2076618ad4584a288e97cab3d90","spanId":"8032c115fe5d2a17","name":"llm_request","attributes":[{a}]}}]}}]}}]}}"#
        ));
    }
    let members = [
        r#""timeUnixNano":"1""#,
        r#""body":{"stringValue":"CANARY body"}"#,
        r#""severityNumber":9"#,
        r#""attributes":[{"key":"app.note","value":{"stringValue":"CANARY note"}}]"#,
    ];
    for order in [[1, 0, 2, 3], [0, 1, 2, 3], [0, 2, 3, 1], [3, 2, 1, 0]] {
        let m: Vec<&str> = order.iter().map(|&i| members[i]).collect();
        lines.push(format!(
            r#"{{"resourceLogs":[{{"scopeLogs":[{{"logRecords":[{{{}}},{{{}}}]}}]}}]}}"#,
            m.join(","),
            m[..2].join(",")
        ));
    }
    lines
}

/// The projection the fast path writes, attacked where cutting bytes out
/// could go wrong ([`content_in_every_place`]). Each line must be
/// projected by the fast path (else this test proves nothing), with the
/// full path's bytes, as valid JSON, and no canary.
#[test]
fn content_is_cut_out_wherever_it_stands() {
    let p = policy();
    let lines = content_in_every_place();
    for line in &lines {
        let bytes = line.as_bytes();
        let (stripped, _, _) =
            fast_alone(&p, bytes, true).unwrap_or_else(|| panic!("not projected: {line}"));
        assert!(stripped > 0, "{line}");
        let mut fast = Gate::new(p.clone());
        let mut slow = Gate::new(p.clone());
        slow.disable_otlp_fast_path();
        let jf = fast.judge(1, &Line::Text(bytes), Level::Standard, true);
        let js = slow.judge(1, &Line::Text(bytes), Level::Standard, true);
        assert_eq!(jf, js, "{line}");
        assert_eq!(jf.verdict, Verdict::Rewritten, "{line}");
        let out = String::from_utf8(fast.output().to_vec()).unwrap();
        assert_eq!(out.as_bytes(), slow.output(), "{line}");
        assert!(!out.contains("CANARY"), "{out}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    }
    assert!(lines.len() > 200, "{} lines", lines.len());
}

#[test]
fn what_the_fast_path_does_not_read_goes_to_the_full_path() {
    let p = policy();
    for (from, to) in [
        // A value that breaks its rule, or that the detectors flag.
        (r#""gpt-4o"}"#, r#""gpt 4o!"}"#),
        (r#""chat"}"#, r#""4111 1111 1111 1111"}"#),
        // Escapes where a value is checked; an escaped key.
        (r#""chat"}"#, r#""ch\u0061t"}"#),
        (r#""key": "server.port""#, r#""key": "server\u002eport""#),
        // Uppercase hex (rewritten), a leading zero (rewritten).
        (
            "f4aea2076618ad4584a288e97cab3d90",
            "F4AEA2076618AD4584A288E97CAB3D90",
        ),
        (r#""811""#, r#""0811""#),
        (r#""kind": 3"#, r#""kind": 03"#),
        (r#""kind": 3"#, r#""kind": "SPAN_KIND_CLIENT""#),
        // A duplicate attribute key; a duplicate member.
        (
            r#""key": "gen_ai.request.model""#,
            r#""key": "gen_ai.operation.name""#,
        ),
        (r#""kind": 3"#, r#""kind": 3, "kind": 3"#),
        // A member the schema does not list, or a nested value.
        (r#""status": {}"#, r#""status": {}, "extra": 1"#),
        (r#"{"intValue": 443}"#, r#"{"arrayValue": {"values": []}}"#),
        // Whitespace the canonical form does not have; a trailing byte.
        (r#""kind": 3"#, r#""kind" : 3"#),
        (r#"}]}]}]}"#, r#"}]}]}]} "#),
        // Not UTF-8 inside content.
        ("Sure.", "Sure\u{fffd}"),
    ] {
        let line = SDK.replacen(from, to, 1);
        assert_ne!(line, SDK, "{from}");
        let mut bytes = line.into_bytes();
        if to.contains('\u{fffd}') {
            let at = bytes
                .windows(3)
                .position(|w| w == "\u{fffd}".as_bytes())
                .unwrap();
            bytes.splice(at..at + 3, [0xff]);
        }
        assert_eq!(fast_alone(&p, &bytes, false), None, "{to}");
    }
}

/// The memo of passed values remembers a value for the rule it passed,
/// not for another key's rule, across lines and within one.
#[test]
fn the_memo_remembers_a_value_for_its_rule_only() {
    let p = policy();
    let detectors = Detectors::shared(p.redaction().standard_detectors());
    let cx = Context {
        policy: &p,
        detectors: &detectors,
        line: 1,
        project: false,
        findings: true,
        paths: true,
    };
    let line = |attrs: &str| {
        format!(
            r#"{{"resourceSpans": [{{"scopeSpans": [{{"spans": [{{"name": "chat gpt-4o", "attributes": [{attrs}]}}]}}]}}]}}"#
        )
    };
    let model = r#"{"key": "gen_ai.request.model", "value": {"stringValue": "gpt-4o"}}"#;
    let port = r#"{"key": "server.address", "value": {"stringValue": "gpt-4o"}}"#;
    let op = r#"{"key": "gen_ai.operation.name", "value": {"stringValue": "gpt-4o"}}"#;
    let mut fast = FastOtlp::default();
    let mut findings = Vec::new();
    // gpt-4o passes as a model and a server address...
    assert!(
        fast.judge(cx, line(model).as_bytes(), &mut findings)
            .is_some()
    );
    assert!(
        fast.judge(cx, line(port).as_bytes(), &mut findings)
            .is_some()
    );
    // ... but it is no operation name (a closed list): remembered or not,
    // it goes to the full path, on a later line or after a pass in the
    // same one.
    assert!(fast.judge(cx, line(op).as_bytes(), &mut findings).is_none());
    let both = format!("{model}, {op}");
    assert!(
        fast.judge(cx, line(&both).as_bytes(), &mut findings)
            .is_none()
    );
    let mut slow = Gate::new(p.clone());
    slow.disable_otlp_fast_path();
    let j = slow.judge(1, &Line::Text(line(op).as_bytes()), Level::Standard, false);
    assert_eq!(j.verdict, Verdict::Dropped, "{:?}", slow.findings());
    assert!(findings.is_empty());
}

// --- generated requests ------------------------------------------------

pub(super) const KEYS: &[&str] = &[
    "gen_ai.operation.name",
    "gen_ai.request.model",
    "gen_ai.response.id",
    "gen_ai.usage.input_tokens",
    "gen_ai.request.temperature",
    "server.port",
    "server.address",
    "error.type",
    "gen_ai.prompt",
    "gen_ai.completion",
    "gen_ai.prompt.0.content",
    "input.value",
    "x.custom",
    "caf\u{e9}.key",
    "k\u{2028}",
    "gen_ai\\u002eprompt",
    "gen_ai.operation.name",
    "gen_ai.agent.name",
    "gen_ai.tool.name",
    "service.name",
];

const VALUES: &[&str] = &[
    r#"{"stringValue": "chat"}"#,
    r#"{"stringValue": "gpt-4o"}"#,
    r#"{"stringValue": "chatcmpl-4e6980ee651011cb"}"#,
    r#"{"stringValue": "4111 1111 1111 1111"}"#,
    r#"{"stringValue": "jane.doe@example.com"}"#,
    r#"{"stringValue": "a\nb \"q\""}"#,
    "{\"stringValue\": \"caf\u{e9}\"}",
    "{\"stringValue\": \"a\u{2028}b\"}",
    r#"{"stringValue": ""}"#,
    r#"{"intValue": "443"}"#,
    r#"{"intValue": "0443"}"#,
    r#"{"intValue": 443}"#,
    r#"{"intValue": -1}"#,
    r#"{"intValue": "-0"}"#,
    r#"{"intValue": 1.5}"#,
    r#"{"intValue": "99999999999999999999"}"#,
    r#"{"doubleValue": 0.2}"#,
    r#"{"doubleValue": 0.30000000000000004}"#,
    r#"{"doubleValue": 1e400}"#,
    r#"{"doubleValue": "NaN"}"#,
    r#"{"boolValue": true}"#,
    r#"{}"#,
    r#"{"arrayValue": {"values": [{"stringValue": "a"}]}}"#,
    r#"{"stringValue": "a", "intValue": "1"}"#,
    // Names that fit a pattern and break (or just keep) their segment and
    // word bounds (issue 30).
    r#"{"stringValue": "patient-jane-doe-dob-1970-01-01-diagnosis-hiv-positive"}"#,
    r#"{"stringValue": "us.anthropic.claude-3-5-sonnet-20241022-v2:0"}"#,
    r#"{"stringValue": "Jane Doe HIV"}"#,
    r#"{"stringValue": "Jane Doe HIV positive"}"#,
    r#"{"stringValue": "jane_doe_asked_to_cancel_her_chemo"}"#,
    r#"{"stringValue": "mcp__github__create_pull_request"}"#,
    r#"{"stringValue": "jane.doe.hiv.positive.lives.at.elm"}"#,
];

pub(super) const SPAN_MEMBERS: &[&str] = &[
    r#""traceId": "f4aea2076618ad4584a288e97cab3d90""#,
    r#""traceId": "F4AEA2076618AD4584A288E97CAB3D90""#,
    r#""traceId": """#,
    r#""traceId": "f4aea2""#,
    r#""spanId": "8032c115fe5d2a15""#,
    r#""parentSpanId": "8032c115fe5d2a16""#,
    r#""name": "chat gpt-4o""#,
    r#""name": "llm_request""#,
    r#""name": "a sentence with words""#,
    r#""name": "chat gpt\u002d4o""#,
    r#""kind": 3"#,
    r#""kind": 9"#,
    r#""kind": 6"#,
    r#""kind": 5"#,
    r#""kind": "SPAN_KIND_CLIENT""#,
    r#""startTimeUnixNano": "1788450022633673216""#,
    r#""startTimeUnixNano": "0123""#,
    r#""endTimeUnixNano": 1788450022633673"#,
    r#""endTimeUnixNano": 17884500226336732160"#,
    r#""status": {}"#,
    r#""status": {"code": 2}"#,
    r#""status": {"code": 3}"#,
    r#""status": {"message": ""}"#,
    r#""status": {"message": "boom"}"#,
    r#""flags": 769"#,
    r#""flags": 1024"#,
    r#""flags": "0""#,
    r#""events": []"#,
    r#""events": [{"name": "exception", "timeUnixNano": "1"}]"#,
    r#""events": [{"name": "gen_ai.content.prompt", "attributes": [{"key": "gen_ai.prompt", "value": {"stringValue": "hi"}}]}]"#,
    r#""links": [{"traceId": "f4aea2076618ad4584a288e97cab3d90", "spanId": "8032c115fe5d2a15"}]"#,
    r#""traceState": """#,
    r#""traceState": "a=b""#,
    r#""droppedAttributesCount": 0"#,
    r#""foo": 1"#,
    // Span names and event names at the edges of their rules (issue 30).
    r#""name": "chat jane.doe.hiv.positive.lives.at.12.elm.street""#,
    r#""name": "chat global.anthropic.claude-sonnet-4-5-20250929-v1:0""#,
    r#""name": "execute_tool jane_doe_asked_to_cancel_her_chemo""#,
    r#""events": [{"name": "my.card.number.is.four", "timeUnixNano": "1"}]"#,
    r#""events": [{"name": "gen_ai.user.message"}, {"name": "first_token"}]"#,
    // Unsigned integers at the edges of the shared scanner's `plain_uint`
    // (17 digits, no fraction, exponent or leading zero) and of u64/u32.
    r#""kind": 3.0"#,
    r#""flags": 1e2"#,
    r#""flags": "0769""#,
    r#""droppedAttributesCount": 00"#,
    r#""droppedAttributesCount": 4294967295"#,
    r#""droppedAttributesCount": 4294967296"#,
    r#""endTimeUnixNano": 17884500226336732"#,
    r#""endTimeUnixNano": 178845002263367321"#,
    r#""startTimeUnixNano": "18446744073709551615""#,
    r#""startTimeUnixNano": "18446744073709551616""#,
    r#""startTimeUnixNano": 0"#,
];

/// Key and value pairs an SDK sends (indexes into `KEYS`, `VALUES`): they
/// pass, or are content.
const SDK_PAIRS: &[(usize, usize)] = &[
    (0, 0),
    (1, 1),
    (2, 2),
    (3, 9),
    (4, 16),
    (5, 11),
    (8, 5),
    (9, 6),
];

/// Pairs at the edges of the default segment and word bounds (indexes into
/// `KEYS`, `VALUES`): a model of 10 segments and 7 words, a Bedrock model,
/// agent names of 3 and 4 words, tool names of 5 and 7 words, a host and
/// an error type near their bounds. Some pass, some do not; an SDK-like
/// line carries one now and then, so the fast path meets them on lines it
/// would otherwise answer.
const EDGE_PAIRS: &[(usize, usize)] = &[
    (1, 24),
    (1, 25),
    (6, 24),
    (7, 28),
    (17, 26),
    (17, 27),
    (18, 29),
    (18, 28),
];

/// An attribute list from (key, value, shape) picks: an SDK's pair for a
/// key index past `KEYS` (past four times `KEYS` with shape 4: an edge
/// pair), else the key and value picked.
fn attributes(picks: &[(usize, usize, u8)]) -> String {
    let items: Vec<String> = picks
        .iter()
        .enumerate()
        .map(|(at, &(k, v, shape))| {
            // An SDK's pairs in list order: no key twice in a list of eight.
            // Past four times `KEYS`: only the pairs that pass (the first
            // six), for lines that are clean but for one odd member.
            let pairs = if k >= KEYS.len() * 4 {
                &SDK_PAIRS[..6]
            } else {
                SDK_PAIRS
            };
            let (k, v) = if k >= KEYS.len() * 4 && shape % 16 == 4 {
                EDGE_PAIRS[v % EDGE_PAIRS.len()]
            } else if k >= KEYS.len() {
                pairs[(at + picks.first().map_or(0, |p| p.1)) % pairs.len()]
            } else {
                (k, v)
            };
            let (k, v) = (KEYS[k], VALUES[v % VALUES.len()]);
            match shape % 16 {
                0 => format!(r#"{{"value": {v}, "key": "{k}"}}"#),
                1 => format!(r#"{{"key": "{k}"}}"#),
                2 => format!(r#"{{"key": "{k}", "value": {v}, "x": 1}}"#),
                _ => format!(r#"{{"key": "{k}", "value": {v}}}"#),
            }
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// The members an SDK sends (indexes into `SPAN_MEMBERS`).
const SDK_SPAN: &[usize] = &[0, 4, 6, 10, 15, 19];

/// A span: an SDK's members, with member `odd` (if any) put in place of
/// the one of the same name or added.
fn span(odd: Option<usize>, attrs: &[(usize, usize, u8)]) -> String {
    let mut parts: Vec<&str> = SDK_SPAN.iter().map(|&m| SPAN_MEMBERS[m]).collect();
    if let Some(m) = odd {
        let m = SPAN_MEMBERS[m % SPAN_MEMBERS.len()];
        let name = |s: &str| s.split(':').next().unwrap_or("").to_string();
        match parts.iter().position(|p| name(p) == name(m)) {
            Some(at) => parts[at] = m,
            None => parts.push(m),
        }
    }
    let mut parts: Vec<String> = parts.into_iter().map(str::to_string).collect();
    parts.push(format!(r#""attributes": {}"#, attributes(attrs)));
    format!("{{{}}}", parts.join(", "))
}

pub(super) type Picks = Vec<(usize, usize, u8)>;

pub(super) fn picks() -> impl Strategy<Value = Picks> {
    // Mostly an SDK's pairs (a key index past `KEYS`), some of anything.
    prop::collection::vec((0..KEYS.len() * 5, 0..VALUES.len(), any::<u8>()), 0..8)
}

pub(super) fn request(
    resource: &Picks,
    spans: &[(Option<usize>, Picks)],
    logs: bool,
    scope: u8,
    mutation: u8,
) -> String {
    let spans: Vec<String> = spans.iter().map(|(m, a)| span(*m, a)).collect();
    let scope = match scope % 6 {
        0 => r#"{"name": "opentelemetry.instrumentation.openai_v2", "version": "2.1b0"}"#,
        1 => r#"{"name": "my scope with spaces"}"#,
        2 => r#"{}"#,
        3 => r#"{"name": "openai", "version": "1.0.0-jane.doe.has.hiv"}"#,
        4 => {
            r#"{"name": "go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp", "version": "0.53.0"}"#
        }
        _ => r#"{"name": "vllm", "attributes": [{"key": "x", "value": {}}]}"#,
    };
    let mut line = if logs {
        format!(
            r#"{{"resourceLogs": [{{"resource": {{"attributes": {}}}, "scopeLogs": [{{"scope": {scope}, "logRecords": [{{"timeUnixNano": "1", "severityNumber": 9, "severityText": "INFO", "body": {{"stringValue": "hello"}}, "attributes": {}}}]}}]}}]}}"#,
            attributes(resource),
            attributes(resource),
        )
    } else {
        format!(
            r#"{{"resourceSpans": [{{"resource": {{"attributes": {}}}, "scopeSpans": [{{"scope": {scope}, "spans": [{}]}}]}}]}}"#,
            attributes(resource),
            spans.join(", ")
        )
    };
    match mutation % 24 {
        // The compact style, all through.
        0 | 1 | 8..=11 => line = line.replace(", ", ",").replace(": ", ":"),
        // The two styles mixed; whitespace where the canonical form has none.
        2 => line = line.replacen(", ", ",", 1),
        3 => line = line.replacen(": ", " : ", 1),
        4 => line.push(' '),
        5 => line = format!(r#"{}, "extra": 1}}"#, &line[..line.len() - 1]),
        6 => line = line.replacen("[{", "[ {", 1),
        _ => {}
    }
    line
}

/// The invariant: wherever the fast path answers, the full path says the
/// same (verdict, findings, counts); and a gate with the fast path judges
/// every line exactly as one without it, projection included.
#[test]
fn the_fast_path_answers_as_the_full_path_does() {
    let p = policy();
    let hits = std::sync::atomic::AtomicUsize::new(0);
    let stripped_hits = std::sync::atomic::AtomicUsize::new(0);
    let projected_hits = std::sync::atomic::AtomicUsize::new(0);
    let cfg = ProptestConfig {
        cases: if cfg!(debug_assertions) { 1500 } else { 6000 },
        ..ProptestConfig::default()
    };
    proptest!(cfg, |(
        resource in picks(),
        spans in prop::collection::vec((prop::option::weighted(0.6, 0..SPAN_MEMBERS.len()), picks()), 0..4),
        logs in prop::bool::weighted(0.2),
        scope in any::<u8>(),
        mutation in any::<u8>(),
        clean in prop::bool::weighted(0.4),
    )| {
        // Clean but for (at most) one odd span member: where a wrong
        // "verbatim" would show.
        let (resource, spans, scope, mutation) = if clean {
            let sdk = |p: Picks| -> Picks { p.into_iter().take(6).map(|(_, v, s)| (KEYS.len() * 4, v, if s % 8 == 0 { 4 } else { 5 })).collect() };
            let spans: Vec<(Option<usize>, Picks)> = spans.into_iter().map(|(m, a)| (m, sdk(a))).collect();
            (sdk(resource), spans, scope & !1, mutation | 8)
        } else {
            (resource, spans, scope, mutation)
        };
        let line = request(&resource, &spans, logs, scope, mutation);
        let bytes = line.as_bytes();
        let mut fast = Gate::new(p.clone());
        let mut slow = Gate::new(p.clone());
        slow.disable_otlp_fast_path();
        // A gate that writes no findings judges and projects the same.
        let mut quiet = Gate::new(p.clone());
        quiet.set_findings(false);
        // So does one that writes strip findings without their paths.
        let mut pathless = Gate::new(p.clone());
        pathless.set_strip_paths(false);
        for rebuild in [false, true] {
            let jf = fast.judge(3, &Line::Text(bytes), Level::Standard, rebuild);
            let js = slow.judge(3, &Line::Text(bytes), Level::Standard, rebuild);
            prop_assert_eq!(jf, js, "{}", line);
            prop_assert_eq!(fast.findings(), slow.findings(), "{}", line);
            prop_assert_eq!(fast.output(), slow.output(), "{}", line);
            let jq = quiet.judge(3, &Line::Text(bytes), Level::Standard, rebuild);
            prop_assert_eq!(jq, jf, "{}", line);
            prop_assert_eq!(quiet.output(), fast.output(), "{}", line);
            prop_assert_eq!(quiet.stripped_ranges(), fast.stripped_ranges(), "{}", line);
            prop_assert!(quiet.findings().is_empty(), "{}", line);
            let jp = pathless.judge(3, &Line::Text(bytes), Level::Standard, rebuild);
            prop_assert_eq!(jp, jf, "{}", line);
            prop_assert_eq!(pathless.output(), fast.output(), "{}", line);
            prop_assert!(same_but_strip_paths(pathless.findings(), fast.findings()), "{}", line);
        }
        if let Some((stripped, has_content, _)) = fast_alone(&p, bytes, false) {
            hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let js = slow.judge(7, &Line::Text(bytes), Level::Standard, false);
            let shown: Vec<String> = slow.findings().iter().map(|f| format!("{f:?}")).collect();
            prop_assert_eq!(Some((stripped, has_content, shown)), fast_alone(&p, bytes, false), "{}", line);
            prop_assert_eq!(js.stripped, stripped, "{}", line);
            prop_assert_eq!(js.has_content, has_content, "{}", line);
            prop_assert_eq!(js.verdict == Verdict::Verbatim, stripped == 0, "{}", line);
            if stripped > 0 {
                stripped_hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            if stripped > 0 && fast_alone(&p, bytes, true).is_some() {
                projected_hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        }
    });
    // Not vacuous: the fast path answers for a good share of the lines,
    // with and without strips.
    let (hits, stripped, projected) = (
        hits.load(std::sync::atomic::Ordering::Relaxed),
        stripped_hits.load(std::sync::atomic::Ordering::Relaxed),
        projected_hits.load(std::sync::atomic::Ordering::Relaxed),
    );
    eprintln!("{hits} answered, {stripped} with strips, {projected} projected");
    assert!(
        hits > 300 && stripped > 100 && projected > 20,
        "{hits} answered, {stripped} with strips, {projected} projected"
    );
}

/// The memo outlives a record: one gate judging a stream of requests
/// answers each as a gate without the fast path does. The requests draw
/// keys and values from one small pool, so a value the memo kept under one
/// key's rule comes back under another key, whose rule may refuse it (the
/// attack on a memo keyed by bytes alone). The test above makes a fresh
/// gate per request and cannot see this.
#[test]
fn one_gate_over_a_stream_answers_as_the_full_path_does() {
    let p = policy();
    let mut slow = Gate::new(p.clone());
    slow.disable_otlp_fast_path();
    // Kept across cases (the proptest closure is `Fn`).
    let gates = std::cell::RefCell::new((Gate::new(p.clone()), slow));
    let cfg = ProptestConfig {
        cases: if cfg!(debug_assertions) { 200 } else { 1000 },
        ..ProptestConfig::default()
    };
    proptest!(cfg, |(
        stream in prop::collection::vec(
            (picks(), prop::collection::vec((prop::option::weighted(0.6, 0..SPAN_MEMBERS.len()), picks()), 1..3), any::<u8>()),
            2..8,
        ),
    )| {
        let (fast, slow) = &mut *gates.borrow_mut();
        for (resource, spans, mutation) in &stream {
            let line = request(resource, spans, false, 0, *mutation);
            let bytes = line.as_bytes();
            let jf = fast.judge(3, &Line::Text(bytes), Level::Standard, false);
            let js = slow.judge(3, &Line::Text(bytes), Level::Standard, false);
            prop_assert_eq!(jf, js, "{}", line);
            prop_assert_eq!(fast.findings(), slow.findings(), "{}", line);
            prop_assert_eq!(fast.output(), slow.output(), "{}", line);
        }
    });
}

/// A request as protobuf (prost's encoding), its line as the wire walk
/// writes it with the pieces, and what a gate at standard level makes of
/// it: `(verdict, protobuf out by cutting, protobuf out by encoding the
/// gated line)`; `None` when prost cannot encode `line` or the walk left
/// the request to prost.
fn through_protobuf(p: &Arc<Policy>, line: &str) -> Option<(Verdict, Option<Vec<u8>>, Vec<u8>)> {
    use crate::record::otlp_proto::oracle::{encode_logs_prost, encode_traces_prost};
    use crate::record::otlp_proto::{MappedLine, bounds::Signal, cut, request_line_mapped};
    let logs = line.starts_with(r#"{"resourceLogs""#);
    let (pb, signal) = if logs {
        (encode_logs_prost(line).ok()?, Signal::Logs)
    } else {
        (encode_traces_prost(line).ok()?, Signal::Traces)
    };
    let limits = p.server().structure;
    let MappedLine { line, pieces } = request_line_mapped(&pb, signal, &limits).ok()??;
    let pieces = pieces?;
    let mut gate = Gate::new(p.clone());
    let j = gate.judge(1, &Line::Text(&line), Level::Standard, true);
    let gated: &[u8] = match j.verdict {
        Verdict::Rewritten => gate.output(),
        _ => &line,
    };
    let text = std::str::from_utf8(gated).ok()?;
    let encoded = if logs {
        encode_logs_prost(text).ok()?
    } else {
        encode_traces_prost(text).ok()?
    };
    let cut_out = match j.verdict {
        Verdict::Rewritten => gate
            .stripped_ranges()
            .and_then(|r| cut::project(&pb, &pieces, r)),
        // Passed whole: the request itself goes on.
        Verdict::Verbatim => Some(pb),
        _ => None,
    };
    Some((j.verdict, cut_out, encoded))
}

/// The stripped members cut out of the protobuf request are exactly the
/// encoded projection, wherever the content stands
/// ([`content_in_every_place`], as protobuf). No canary survives.
#[test]
fn content_is_cut_out_of_the_protobuf_request_wherever_it_stands() {
    let p = policy();
    let lines = content_in_every_place();
    for line in &lines {
        let (verdict, out, encoded) = through_protobuf(&p, line).expect(line);
        assert_eq!(verdict, Verdict::Rewritten, "{line}");
        let out = out.unwrap_or_else(|| panic!("not cut: {line}"));
        assert_eq!(out, encoded, "{line}");
        assert!(!out.windows(6).any(|w| w == b"CANARY"), "{line}");
    }
    assert!(lines.len() > 200, "{} lines", lines.len());
}

/// Generated requests (the SDK shapes and odd members of
/// `the_fast_path_answers_as_the_full_path_does`) as protobuf: a request
/// the gate passes whole goes on as it came, one it only strips goes on
/// cut, and either is byte for byte the gated line encoded again.
#[test]
fn the_protobuf_request_cut_is_the_encoded_projection() {
    let p = policy();
    let (cut, whole) = (
        std::sync::atomic::AtomicUsize::new(0),
        std::sync::atomic::AtomicUsize::new(0),
    );
    let cfg = ProptestConfig {
        cases: if cfg!(debug_assertions) { 600 } else { 3000 },
        ..ProptestConfig::default()
    };
    proptest!(cfg, |(
        resource in picks(),
        spans in prop::collection::vec((prop::option::weighted(0.3, 0..SPAN_MEMBERS.len()), picks()), 1..4),
        logs in prop::bool::weighted(0.2),
        scope in any::<u8>(),
        clean in prop::bool::weighted(0.4),
    )| {
        // Only the pairs an SDK sends that pass: a request passed whole.
        let (resource, spans) = if clean {
            let sdk = |p: Picks| -> Picks { p.into_iter().take(6).map(|(_, v, _)| (KEYS.len() * 4, v, 5)).collect() };
            (sdk(resource), spans.into_iter().map(|(_, a)| (None, sdk(a))).collect())
        } else {
            (resource, spans)
        };
        let line = request(&resource, &spans, logs, scope & !1, 8);
        if let Some((verdict, Some(out), encoded)) = through_protobuf(&p, &line) {
            prop_assert_eq!(&out, &encoded, "{}", line);
            let n = if verdict == Verdict::Verbatim { &whole } else { &cut };
            n.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    });
    let (cut, whole) = (cut.into_inner(), whole.into_inner());
    eprintln!("{cut} cut, {whole} whole");
    assert!(cut > 50 && whole > 10, "{cut} cut, {whole} whole");
}

/// Whether `pathless` (a gate's findings with [`Gate::set_strip_paths`]
/// off) are `full` (the same gate's with it on) but for strip findings
/// without their path and message: the same number, in the same order,
/// each with the same line, kind and rule.
pub(super) fn same_but_strip_paths(pathless: &[Finding], full: &[Finding]) -> bool {
    pathless.len() == full.len()
        && pathless.iter().zip(full).all(|(a, b)| {
            (a.line, a.kind, a.rule) == (b.line, b.kind, b.rule)
                && (a == b
                    || (a.field.is_none()
                        && a.message.is_empty()
                        && matches!(b.rule, Rule::ContentField | Rule::UnknownField)))
        })
}
