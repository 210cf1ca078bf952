//! The standard level proves every byte (issue 14, issue 22 items 8 and
//! 11), through the real binary: canonical bytes, allowlist strings that
//! must be constrained, ASCII-only patterns.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::cli::{tracegate, write};

/// A policy with one standard sink `trace-file` and `extra` appended.
fn policy(dir: &Path, extra: &str) -> PathBuf {
    write(
        dir,
        "policy.toml",
        &format!("version = 1\n[[sink]]\nname = \"trace-file\"\n{extra}"),
    )
}

fn filter(policy: &Path, input: &str) -> super::cli::Run {
    let p = policy.to_str().unwrap();
    tracegate(
        &["filter", "--policy", p, "--sink", "trace-file"],
        input.as_bytes(),
    )
}

fn check(policy: &Path, input: &str) -> super::cli::Run {
    let p = policy.to_str().unwrap();
    tracegate(
        &["check", "--policy", p, "--format", "json", "-"],
        input.as_bytes(),
    )
}

#[test]
fn filter_rewrites_number_whitespace_and_escape_channels() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(dir.path(), "");
    let sentence = "3".repeat(225);
    let input = format!(
        "{{\"request_id\":\"chatcmpl-\\u0039f2c\",\t\"t_arrival\":  0.{sentence}, \"priority_score\":1e0000000001}}\n"
    );
    let r = filter(&p, &input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "{\"request_id\":\"chatcmpl-9f2c\",\"t_arrival\":0.3333333333333333,\"priority_score\":10.0}\n"
    );
    // Clean and canonical: no finding, so `check` has nothing to say.
    let c = check(&p, &input);
    assert_eq!(c.code, 0, "{}", c.stdout);
}

#[test]
fn seed_style_records_pass_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(dir.path(), "");
    let text =
        std::fs::read_to_string(super::cli::root().join("examples/traces/standard.jsonl")).unwrap();
    let r = filter(&p, &text);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let clean: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    for line in &clean {
        assert!(r.stdout.lines().any(|o| o == *line), "{line}");
    }
}

#[test]
fn unconstrained_standard_strings_are_refused_unless_marked_free_text() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(
        dir.path(),
        "[standard.fields]\nnote = { type = \"string\" }\n",
    );
    let r = tracegate(&["policy", "check", p.to_str().unwrap()], b"");
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("admits free text"), "{}", r.stderr);
    assert!(r.stderr.contains("free_text = true"), "{}", r.stderr);
    // Nested and OTLP allowlists too.
    for extra in [
        "[standard.otlp.span_attributes]\n\"x\" = { type = \"string\", max_len = 64 }\n",
        "[standard.fields.obj]\ntype = \"object\"\n[standard.fields.obj.fields]\nnote = { type = \"string\" }\n",
    ] {
        let p = policy(dir.path(), extra);
        let r = tracegate(&["policy", "check", p.to_str().unwrap()], b"");
        assert_eq!(r.code, 2, "{extra}: {}", r.stdout);
    }
    let p = policy(
        dir.path(),
        "[standard.fields]\nnote = { type = \"string\", max_len = 64, free_text = true }\n",
    );
    let r = tracegate(&["policy", "check", p.to_str().unwrap()], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("free text: 1 standard field(s)") && r.stdout.contains("note"),
        "{}",
        r.stdout
    );
}

#[test]
fn allowlist_patterns_are_ascii_only_unless_the_rule_opts_in() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(
        dir.path(),
        "[standard.fields]\nrequest_id = { type = \"string\", pattern = 'req_\\d{1,16}' }\nname = { type = \"string\", pattern = '(?i)[a-z]\\w{0,40}' }\n",
    );
    // Full-width digits (a card number) and a Cyrillic sentence in `\w`.
    for (line, field) in [
        (
            "{\"request_id\":\"req_\u{ff14}\u{ff11}\u{ff11}\u{ff11}\u{ff11}\u{ff11}\u{ff11}\u{ff11}\"}",
            "request_id",
        ),
        (
            "{\"request_id\":\"req_\u{0664}\u{0661}\u{0661}\u{0661}\"}",
            "request_id",
        ),
        (
            "{\"name\":\"\u{043f}\u{0440}\u{0438}\u{0432}\u{0435}\u{0442}_\u{043c}\u{0438}\u{0440}\"}",
            "name",
        ),
        ("{\"name\":\"\u{212a}elvin\"}", "name"),
    ] {
        let c = check(&p, line);
        assert_eq!(c.code, 1, "{line}");
        assert!(
            c.stdout.contains("\"rule\":\"pattern\"") && c.stdout.contains(field),
            "{line}: {}",
            c.stdout
        );
    }
    let ok = check(&p, "{\"request_id\":\"req_41\",\"name\":\"Kelvin_1\"}");
    assert_eq!(ok.code, 0, "{}", ok.stdout);
    // Opting in restores the Unicode meaning.
    let p = policy(
        dir.path(),
        "[standard.fields]\nname = { type = \"string\", pattern = '\\w+', unicode = true }\n",
    );
    let c = check(&p, "{\"name\":\"\u{043f}\u{0440}\u{0438}\"}");
    assert_eq!(c.code, 0, "{}", c.stdout);
}

#[test]
fn a_pattern_over_the_size_limit_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(
        dir.path(),
        "[standard.fields]\nid = { type = \"string\", pattern = '(?:\\w{1,500}){1,20}', unicode = true }\n",
    );
    let r = tracegate(&["policy", "check", p.to_str().unwrap()], b"");
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("pattern is too large"), "{}", r.stderr);
    assert!(r.stderr.contains("policy.toml:"), "{}", r.stderr);
}

#[test]
fn evidence_reasons_and_statuses_are_closed_and_ids_tight() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(dir.path(), "");
    let record = |extra: &str| {
        format!(
            r#"{{"schema_version": "latency-evidence.v1", "trace_id": "tr_synthetic_8f31", "request_id": "req_synthetic_2047", "attempt": 1, "events": [], "derived_intervals": [], {extra}}}"#
        )
    };
    let ok = check(
        &p,
        &record(
            r#""clock_source": "local_monotonic_with_utc_correlation", "sync_status": "documented_by_deployment", "status": "cancelled", "cancellation_reason": "client_cancellation""#,
        ),
    );
    assert!(
        !ok.stdout.contains("\"kind\":\"violation\""),
        "{}",
        ok.stdout
    );
    for (extra, field) in [
        (
            r#""status": "completed", "error_reason": "the_customer_ssn_is_one_two_three""#,
            "error_reason",
        ),
        (
            r#""status": "my_card_number_is_four_one_one_one""#,
            "status",
        ),
        (
            r#""status": "completed", "clock_source": "alice_smith_phoned_us""#,
            "clock_source",
        ),
        (
            r#""status": "completed", "sync_status": "please_call_me_back""#,
            "sync_status",
        ),
        (
            r#""status": "completed", "route_id": "my-card-is-4111-1111-1111-1111-call-me""#,
            "route_id",
        ),
        (
            r#""status": "completed", "span_id": "card_4111111111111111""#,
            "span_id",
        ),
    ] {
        let c = check(&p, &record(extra));
        assert_eq!(c.code, 1, "{extra}");
        assert!(
            c.stdout.contains(&format!("\"field\":\"{field}\""))
                && c.stdout.contains("\"kind\":\"violation\""),
            "{extra}: {}",
            c.stdout
        );
    }
}

#[test]
fn a_byte_order_mark_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(dir.path(), "");
    let input =
        "\u{feff}{\"request_id\": \"chatcmpl-9f2c41d0\"}\n{\"request_id\": \"chatcmpl-1\"}\n";
    let c = check(&p, input);
    assert_eq!(c.code, 1);
    assert!(c.stdout.contains("\"line\":1"), "{}", c.stdout);
    assert!(c.stdout.contains("byte order mark"), "{}", c.stdout);
    let f = filter(&p, input);
    assert_eq!(f.stdout, "{\"request_id\": \"chatcmpl-1\"}\n");
}

#[test]
fn pseudonyms_reach_otlp_attributes_and_ids_and_keep_only_listed_prefixes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("key"), "k".repeat(32)).unwrap();
    let p = policy(
        dir.path(),
        "pseudonymize = [\"cf.request_id\", \"traceId\", \"spanId\", \"request_id\"]\n[redact]\nkey_file = \"key\"\n[standard.fields]\nrequest_id = { type = \"string\", pattern = '[a-z]+-[0-9]+' }\n",
    );
    let span = r#"{"name":"llm_request","traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","attributes":[{"key":"cf.request_id","value":{"stringValue":"chatcmpl-b8af6f4d128fdd4c-b31b5b1f"}}],"links":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331"}]}"#;
    let r = filter(&p, &format!("{span}\n{{\"request_id\":\"alice-7\"}}\n"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut lines = r.stdout.lines();
    let out: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    for original in [
        "5b8efff798038103d269b633813fc60c",
        "eee19b7ec3c1b174",
        "b8af6f4d128fdd4c",
        "0af7651916cd43dd8448eb211c80319c",
        "b7ad6b7169203331",
    ] {
        assert!(!r.stdout.contains(original), "{original}: {}", r.stdout);
    }
    let id = out["attributes"][0]["value"]["stringValue"]
        .as_str()
        .unwrap();
    assert!(id.starts_with("chatcmpl-") && id.len() == 34, "{id}");
    for (ptr, len) in [
        ("/traceId", 32),
        ("/spanId", 16),
        ("/links/0/traceId", 32),
        ("/links/0/spanId", 16),
    ] {
        let v = out.pointer(ptr).and_then(|v| v.as_str()).unwrap();
        assert_eq!(v.len(), len, "{ptr}");
        assert!(
            v.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()),
            "{ptr}: {v}"
        );
    }
    // `alice-` is not a listed prefix: the name is rewritten too.
    let cf: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    let got = cf["request_id"].as_str().unwrap();
    assert!(!got.starts_with("alice"), "{got}");
    assert_eq!(got.len(), "alice-7".len());
}

/// SECURITY (issue 15): `gen_ai.conversation.id` links one person's
/// requests; where a redaction key is set (a file or the environment), a
/// sink that names no `pseudonymize` list gets it as a keyed pseudonym,
/// while `pseudonymize = []` opts out and a policy without a key passes it
/// as the allowlist says.
#[test]
fn a_conversation_id_is_pseudonymized_by_default_where_a_key_is_set() {
    let canary = "conv-8c1f0a77d2";
    let span = format!(
        r#"{{"name":"chat gpt-4o","traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","attributes":[{{"key":"gen_ai.conversation.id","value":{{"stringValue":"{canary}"}}}},{{"key":"gen_ai.operation.name","value":{{"stringValue":"chat"}}}}]}}"#
    );
    let run = |dir: &Path, text: &str, sink: &str, env_key: Option<&str>| {
        let p = write(dir, "policy.toml", text);
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tracegate"));
        cmd.args(["filter", "--policy", p.to_str().unwrap(), "--sink", sink])
            .env_remove("TRACEGATE_REDACT_KEY")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(k) = env_key {
            cmd.env("TRACEGATE_REDACT_KEY", k);
        }
        let mut child = cmd.spawn().unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(format!("{span}\n").as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
        let id = v["attributes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["key"] == "gen_ai.conversation.id")
            .map(|a| a["value"]["stringValue"].as_str().unwrap().to_string())
            .expect("the conversation id is allowlisted");
        (stdout, id)
    };
    let sinks =
        "version = 1\n[[sink]]\nname = \"std\"\n[[sink]]\nname = \"optout\"\npseudonymize = []\n";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("key"), "k".repeat(32)).unwrap();
    let keyed = format!("{sinks}[redact]\nkey_file = \"key\"\n");
    let (out, id) = run(dir.path(), &keyed, "std", None);
    assert!(!out.contains(canary), "{out}");
    assert_eq!(id.len(), canary.len(), "{id}");
    // The same id, the same pseudonym: conversations still group.
    assert_eq!(run(dir.path(), &keyed, "std", None).1, id);
    assert_eq!(run(dir.path(), &keyed, "optout", None).1, canary);
    // A key from the environment only.
    let (out, env_id) = run(dir.path(), sinks, "std", Some(&"e".repeat(32)));
    assert!(!out.contains(canary), "{out}");
    assert_ne!(env_id, id, "another key, another pseudonym");
    // No key anywhere: the id passes as its allowlist rule says.
    assert_eq!(run(dir.path(), sinks, "std", None).1, canary);
}

#[test]
fn a_pseudonymize_name_no_allowlist_holds_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("key"), "k".repeat(32)).unwrap();
    let p = policy(
        dir.path(),
        "pseudonymize = [\"cf.requestid\"]\n[redact]\nkey_file = \"key\"\n",
    );
    let r = tracegate(&["policy", "check", p.to_str().unwrap()], b"");
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(
        r.stderr.contains("`pseudonymize` names `cf.requestid`"),
        "{}",
        r.stderr
    );
}
