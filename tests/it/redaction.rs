//! Redaction and pseudonyms as a sink receives them: through the gate, the
//! policy's `[redact]` section, `filter` in an open window and `redact`.

use std::path::Path;
use std::sync::Arc;

use tracegate::Level;
use tracegate::Line;
use tracegate::Policy;
use tracegate::{Gate, Verdict};

use super::cli::tracegate;

const KEY: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

fn policy_in(dir: &Path, body: &str) -> Arc<Policy> {
    std::fs::write(dir.join("key.hex"), KEY).unwrap();
    let path = dir.join("policy.toml");
    std::fs::write(&path, body).unwrap();
    Arc::new(Policy::load(&path).unwrap())
}

fn judge(gate: &mut Gate, line: &str, level: Level) -> String {
    let j = gate.judge(1, &Line::Text(line.as_bytes()), level, true);
    match j.verdict {
        Verdict::Verbatim => line.to_string(),
        Verdict::Rewritten => String::from_utf8(gate.output().to_vec()).unwrap(),
        _ => String::new(),
    }
}

const REDACT_POLICY: &str = r#"
[redact]
builtin = ["email", "credit_card", "api_key"]
key_file = "key.hex"
[[redact.keywords]]
name = "customer"
words = ["Northwind Analytics"]
case_insensitive = true
action = "hash"
[[sink]]
name = "cap"
full_allowed = true
[audit]
path = "audit.jsonl"
"#;

#[test]
fn content_at_full_level_is_redacted_and_hash_tokens_are_stable() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy_in(dir.path(), REDACT_POLICY);
    let mut gate = Gate::for_sink(p, "cap");
    let a = judge(
        &mut gate,
        r#"{"request_id":"chatcmpl-1","prompt_text":"mail jane@example.com about northwind analytics, card 4111 1111 1111 1111"}"#,
        Level::Full,
    );
    assert!(
        !a.contains("jane@example.com") && !a.contains("4111"),
        "{a}"
    );
    assert!(
        a.contains("[REDACTED:email]") && a.contains("[REDACTED:credit_card]"),
        "{a}"
    );
    let token = a.split("[customer:").nth(1).unwrap()[..10].to_string();
    let b = judge(
        &mut gate,
        r#"{"request_id":"chatcmpl-2","output_text":"Northwind Analytics paid"}"#,
        Level::Full,
    );
    assert!(
        b.contains(&format!("[customer:{token}]")),
        "same secret, same token: {b}"
    );
    // Standard level: no content at all, redacted or not.
    let s = judge(
        &mut gate,
        r#"{"request_id":"chatcmpl-1","prompt_text":"x"}"#,
        Level::Standard,
    );
    assert_eq!(s, r#"{"request_id":"chatcmpl-1"}"#);
}

#[test]
fn escapes_around_redacted_content_keep_their_meaning() {
    // The gate copies the raw, escaped text around each replacement rather
    // than decoding and re-escaping it: escapes right next to a secret, a
    // secret written with escapes, and characters beyond the BMP must all
    // come out meaning what they meant.
    let dir = tempfile::tempdir().unwrap();
    let p = policy_in(dir.path(), REDACT_POLICY);
    let mut gate = Gate::for_sink(p, "cap");
    let line = r#"{"request_id":"chatcmpl-1","prompt_text":"caf\u00e9\n\"jane@example.com\"\t\ud83d\ude00 b\u006fb@ex\u0061mple.com\\4111 1111 1111 1111\/end"}"#;
    let out = judge(&mut gate, line, Level::Full);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["prompt_text"],
        "café\n\"[REDACTED:email]\"\t😀 [REDACTED:email]\\[REDACTED:credit_card]/end",
        "{out}"
    );
    assert!(
        !out.contains("example") && !out.contains("ex\\u0061mple") && !out.contains("4111"),
        "{out}"
    );
    // Unchanged bytes are copied as written, escapes included.
    assert!(
        out.contains(r#"caf\u00e9\n\""#) && out.contains(r#"\/end"#),
        "{out}"
    );
}

#[test]
fn content_a_second_pass_rewrites_is_escaped_from_the_final_text() {
    // `+44 20 7946 0958` glued to a keyword match is only a phone number
    // once the keyword is a token (a second pass); the field then goes out
    // escaped from the final text, not from the first pass's edits.
    let dir = tempfile::tempdir().unwrap();
    let p = policy_in(
        dir.path(),
        "[redact]\nbuiltin = [\"phone\"]\n[[redact.keywords]]\nname = \"glued\"\nwords = [\"123456\"]\nwhole_word = false\n[[sink]]\nname = \"cap\"\nfull_allowed = true\n[audit]\npath = \"audit.jsonl\"\n",
    );
    let mut gate = Gate::for_sink(p, "cap");
    let text = "\"call\"\n+44 20 7946 0958 123456 now\t\u{e9}";
    let redactor = glued_phone_redactor();
    let (mut direct, mut edits) = (String::new(), Vec::new());
    let res = redactor.redact_with_edits(text, &mut direct, &mut edits);
    // The phone detector learned spaced international numbers (issue 20),
    // so this text now settles in one pass; the gate must still write the
    // final text, escaped, whichever path redaction took.
    assert!(res.changed, "{edits:?}");
    assert_eq!(
        direct,
        "\"call\"\n[REDACTED:phone] [REDACTED:glued] now\t\u{e9}"
    );
    let line = serde_json::json!({"request_id": "chatcmpl-1", "prompt_text": text}).to_string();
    let out = judge(&mut gate, &line, Level::Full);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["prompt_text"], direct.as_str(), "{out}");
}

/// The redactor of `content_a_second_pass_rewrites_is_escaped_from_the_final_text`.
fn glued_phone_redactor() -> tracegate::Redactor {
    use tracegate::{Action, KeywordRule, RedactConfig, Redactor};
    let cfg = RedactConfig {
        builtin: vec!["phone".into()],
        patterns: vec![],
        keywords: vec![KeywordRule {
            name: "glued".into(),
            words: vec!["123456".into()],
            case_insensitive: false,
            whole_word: false,
            action: Action::Mask,
        }],
        ..RedactConfig::default()
    };
    Redactor::compile(&cfg, None).unwrap()
}

#[test]
fn a_gate_judges_each_record_alone_whatever_came_before() {
    // After a record with content at full level the gate skips its fast
    // path for the next one; the verdicts must not depend on that.
    let dir = tempfile::tempdir().unwrap();
    let p = policy_in(dir.path(), REDACT_POLICY);
    let lines = [
        r#"{"request_id":"chatcmpl-1","prompt_text":"mail jane@example.com"}"#,
        r#"{"request_id":"chatcmpl-2","prompt_tokens":12}"#,
        r#"{"request_id":"chatcmpl-3","prompt_tokens":-1}"#,
        r#"{"request_id":"chatcmpl-4","prompt_text":"nothing here"}"#,
        r#"{"request_id":"chatcmpl-5","unknown":1}"#,
        r#"{"request_id":"chatcmpl-6"}"#,
    ];
    for level in [Level::Full, Level::Standard] {
        let mut shared = Gate::for_sink(Arc::clone(&p), "cap");
        for order in [lines.to_vec(), lines.iter().rev().copied().collect()] {
            for line in order {
                let mut fresh = Gate::for_sink(Arc::clone(&p), "cap");
                let a = shared.judge(1, &Line::Text(line.as_bytes()), level, true);
                let a_out = shared.output().to_vec();
                let b = fresh.judge(1, &Line::Text(line.as_bytes()), level, true);
                assert_eq!(a, b, "{line}");
                assert_eq!(a_out, fresh.output(), "{line}");
            }
        }
    }
}

#[test]
fn a_drop_rule_sends_the_field_as_null() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy_in(
        dir.path(),
        "[redact]\nbuiltin = []\n[[redact.pattern]]\nname = \"invoice\"\nregex = \"INV-[0-9]{4}\"\naction = \"drop\"\n[[sink]]\nname = \"cap\"\n",
    );
    let mut gate = Gate::for_sink(p, "cap");
    let out = judge(
        &mut gate,
        r#"{"request_id":"chatcmpl-1","prompt_text":"about INV-2093 please","output_text":"fine"}"#,
        Level::Full,
    );
    assert_eq!(
        out,
        r#"{"request_id":"chatcmpl-1","prompt_text":null,"output_text":"fine"}"#
    );
    assert_eq!(gate.findings()[0].rule, "redact_drop");
}

#[test]
fn otlp_content_attributes_are_redacted_at_full_level() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy_in(dir.path(), REDACT_POLICY);
    let mut gate = Gate::for_sink(p, "cap");
    let span = r#"{"name":"llm_request","attributes":[{"key":"cf.request_id","value":{"stringValue":"chatcmpl-93bcfebf"}},{"key":"gen_ai.prompt","value":{"stringValue":"write to bob@example.org"}}]}"#;
    let out = judge(&mut gate, span, Level::Full);
    assert!(
        out.contains("[REDACTED:email]") && !out.contains("bob@example.org"),
        "{out}"
    );
    assert!(out.contains("chatcmpl-93bcfebf"));
}

#[test]
fn pseudonyms_keep_the_shape_and_join_within_a_sink() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy_in(
        dir.path(),
        "[redact]\nkey_file = \"key.hex\"\n[[sink]]\nname = \"plain\"\npseudonymize = [\"request_id\"]\n",
    );
    let mut gate = Gate::for_sink(p, "plain");
    let line = r#"{"request_id":"chatcmpl-b8af6f4d128fdd4c-b31b5b1f","prompt_tokens":3}"#;
    let a = judge(&mut gate, line, Level::Standard);
    let b = judge(&mut gate, line, Level::Standard);
    assert_eq!(a, b, "deterministic");
    let v: serde_json::Value = serde_json::from_str(&a).unwrap();
    let id = v["request_id"].as_str().unwrap();
    assert_ne!(id, "chatcmpl-b8af6f4d128fdd4c-b31b5b1f");
    assert!(
        id.starts_with("chatcmpl-") && id.len() == 34 && id.as_bytes()[25] == b'-',
        "{id}"
    );
    // The pseudonym still meets the allowlist's pattern for request_id.
    let mut check = Gate::new(gate.policy().clone());
    assert_eq!(
        check
            .judge(1, &Line::Text(a.as_bytes()), Level::Standard, false)
            .verdict,
        Verdict::Verbatim
    );
}

#[test]
fn weakening_redaction_needs_an_explicit_exception_and_hash_needs_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.toml");
    std::fs::write(&path, "[[sink]]\nname = \"raw\"\nredact = false\n").unwrap();
    let err = Policy::load(&path).unwrap_err().to_string();
    assert!(
        err.contains("sink `raw` weakens redaction but is not in [redact] allow_unredacted_sinks"),
        "{err}"
    );
    std::fs::write(
        &path,
        "[redact]\nallow_unredacted_sinks = [\"raw\"]\n[[sink]]\nname = \"raw\"\nredact = false\n",
    )
    .unwrap();
    assert!(Policy::load(&path).is_ok());
    std::fs::write(
        &path,
        "[[redact.keywords]]\nname = \"customer\"\nwords = [\"x\"]\naction = \"hash\"\n[[sink]]\nname = \"s\"\n",
    )
    .unwrap();
    let r = tracegate(&["policy", "check", path.to_str().unwrap()], b"");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("TRACEGATE_REDACT_KEY"), "{}", r.stderr);
}

#[test]
fn the_redact_command_cleans_a_capture_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("key.hex"), KEY).unwrap();
    let policy = dir.path().join("policy.toml");
    std::fs::write(&policy, REDACT_POLICY).unwrap();
    let input = "{\"request_id\":\"chatcmpl-1\",\"prompt_text\":\"key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD\"}\n{\"request_id\":\"chatcmpl-2\",\"prompt_tokens\":1}\n";
    let r = tracegate(
        &["redact", "--policy", policy.to_str().unwrap()],
        input.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].contains("[REDACTED:api_key]") && !lines[0].contains("sk-proj-abc"),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[1],
        "{\"request_id\":\"chatcmpl-2\",\"prompt_tokens\":1}"
    );
    assert!(
        r.stderr.contains("redact: 2 records: 2 passed"),
        "{}",
        r.stderr
    );
}

/// Seed 003's two-turn session: after redaction, turn 2's prompt still starts
/// with turn 1's redacted prompt and output (the prefix that lets sessions be
/// reconstructed from a flat trace).
#[test]
fn the_session_prefix_survives_redaction_through_the_gate() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy_in(dir.path(), REDACT_POLICY);
    let mut gate = Gate::for_sink(p, "cap");
    let p1 = "system\nYou are the billing assistant. Be brief.\nuser\nWhere do I find my invoice history? I am jane@example.com, card 4111 1111 1111 1111.\nassistant\n<think>\n\n</think>\n\n";
    let o1 = "Billing > Invoices, top right of the console, Northwind Analytics.";
    let p2 =
        format!("{p1}{o1}\nuser\nAnd past payment receipts?\nassistant\n<think>\n\n</think>\n\n");
    let field = |out: &str, f: &str| -> String {
        let v: serde_json::Value = serde_json::from_str(out).unwrap();
        v[f].as_str().unwrap().to_string()
    };
    let rec = |prompt: &str, output: &str| {
        serde_json::json!({"request_id": "chatcmpl-1", "prompt_text": prompt, "output_text": output}).to_string()
    };
    let t1 = judge(&mut gate, &rec(p1, o1), Level::Full);
    let t2 = judge(&mut gate, &rec(&p2, "Same page."), Level::Full);
    let prefix = format!("{}{}", field(&t1, "prompt_text"), field(&t1, "output_text"));
    assert!(field(&t2, "prompt_text").starts_with(&prefix), "{t1}\n{t2}");
    assert!(!t2.contains("jane@example.com") && !t2.contains("Northwind"));
}

/// Issue 12 item 6: an 8 MB record of digits split by blanks (a shape start
/// at every other byte) with cards and keys planted through it goes
/// through the real binary, and nothing planted comes out. The cost bound
/// itself is asserted on the engine's step count in the unit tests
/// (`redact::tests_budget`); here the outcome.
#[test]
fn an_8_mb_adversarial_record_is_redacted_whole_by_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("key.hex"), KEY).unwrap();
    let policy = dir.path().join("policy.toml");
    std::fs::write(&policy, REDACT_POLICY).unwrap();
    let card = "4111 1111 1111 1111";
    let key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    let mut text = String::with_capacity(8 << 20);
    let mut planted = 0;
    let mut i = 0u64;
    while text.len() < 8 << 20 {
        if i.is_multiple_of(1009) {
            text.push_str(if i.is_multiple_of(2018) { card } else { key });
            text.push(' ');
            planted += 1;
        }
        text.push(char::from(b'0' + (i * 7 % 10) as u8));
        text.push(' ');
        i += 1;
    }
    let line = serde_json::json!({"request_id": "chatcmpl-1", "prompt_text": text}).to_string();
    let r = tracegate(
        &["redact", "--policy", policy.to_str().unwrap()],
        format!("{line}\n").as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains(card) && !r.stdout.contains("sk-proj"));
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim_end()).unwrap();
    let out = v["prompt_text"].as_str().unwrap();
    let tokens =
        out.matches("[REDACTED:credit_card]").count() + out.matches("[REDACTED:api_key]").count();
    assert_eq!(tokens, planted);
}

/// Issue 35 item 3: a cf record converted to its span for an OTLP sink
/// (what `serve` does) passes the sink's OTLP allowlist whole at standard
/// level, and at full level carries its content redacted, under the GenAI
/// content attributes, redacted once (the span's second judgement changes
/// nothing the first made).
#[test]
fn a_cf_record_converted_to_a_span_passes_the_otlp_allowlist_and_stays_redacted() {
    use tracegate::internals::record::cf_span::export_line;
    let dir = tempfile::tempdir().unwrap();
    let p = policy_in(dir.path(), REDACT_POLICY);
    let mut gate = Gate::for_sink(p, "cap");
    let cf = r#"{"request_id": "chatcmpl-9f2c41d0", "t_arrival": 1789040112.104, "t_completion": 1789040114.312, "prompt_tokens": 412, "output_tokens": 128, "e2e_latency_s": 2.208, "ttft_s": null, "queue_wait_s": 0.004, "scheduler_family": "ltr-promptlen", "priority_score": -318.0, "prompt_text": "mail jane@example.com about Northwind Analytics"}"#;

    let standard = judge(&mut gate, cf, Level::Standard);
    let span = String::from_utf8(export_line(standard.as_bytes()).unwrap()).unwrap();
    let j = gate.judge(1, &Line::Text(span.as_bytes()), Level::Standard, true);
    assert_eq!(j.verdict, Verdict::Verbatim, "{:?}", gate.findings());
    assert_eq!(j.stripped, 0);
    assert!(gate.findings().is_empty(), "{:?}", gate.findings());

    let full = judge(&mut gate, cf, Level::Full);
    assert!(full.contains("[REDACTED:email]"), "{full}");
    let span = String::from_utf8(export_line(full.as_bytes()).unwrap()).unwrap();
    let out = judge(&mut gate, &span, Level::Full);
    assert!(!out.contains("jane@example.com"), "{out}");
    assert!(out.contains("\"gen_ai.prompt\""), "{out}");
    assert!(out.contains("[REDACTED:email]"), "{out}");
    assert_eq!(
        out.matches("[customer:").count(),
        full.matches("[customer:").count(),
        "{out}"
    );
    // The same span judged at standard level carries no content.
    let out = judge(&mut gate, &span, Level::Standard);
    assert!(
        !out.contains("gen_ai.prompt") && !out.contains("REDACTED"),
        "{out}"
    );
}
