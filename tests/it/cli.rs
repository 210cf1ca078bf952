//! The `tracegate` binary as a user runs it: exit codes, output formats,
//! the never-echo promise.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use proptest::prelude::*;

/// The output of one run.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Run the binary with `args`, feeding `stdin`.
pub fn tracegate(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn tracegate");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

const DEFAULT: &str = "policies/default.toml";

/// `tracegate filter --policy POLICY --sink SINK` on `input`.
pub fn filter(policy: &Path, sink: &str, input: impl AsRef<[u8]>) -> Run {
    let p = policy.to_str().unwrap();
    tracegate(&["filter", "--policy", p, "--sink", sink], input.as_ref())
}

/// Write a policy file as a user's would be at a run: written a while
/// ago. `filter` waits for a policy file younger than `SETTLE` (one
/// second) to settle before it enables windows, so a file dated now cost
/// every `filter` here a second of sleep (24 s of the canary property
/// test alone). The wait itself is held by the library's tests of
/// `load::unsettled` and by the suites that write their files as they
/// are (`serve`'s reloads among them).
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    backdate(&p);
    p
}

/// Date the file at `p` ten seconds back (see [`write`]).
pub fn backdate(p: &Path) {
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(10);
    std::fs::File::options()
        .write(true)
        .open(p)
        .unwrap()
        .set_modified(past)
        .unwrap();
}

/// A policy with a standard sink, for `filter`.
fn standard_policy(dir: &Path, extra: &str) -> PathBuf {
    write(
        dir,
        "policy.toml",
        &format!("[[sink]]\nname = \"trace-file\"\n{extra}"),
    )
}

#[test]
fn check_passes_the_seed_standard_records() {
    let r = tracegate(
        &[
            "check",
            "--policy",
            DEFAULT,
            "examples/traces/standard.jsonl",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "");
    assert_eq!(r.stderr.trim(), "3 records, 0 violations, 0 malformed");
}

#[test]
fn check_flags_the_seed_full_record_by_field_and_rule() {
    let r = tracegate(
        &["check", "--policy", DEFAULT, "examples/traces/full.jsonl"],
        b"",
    );
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout,
        "examples/traces/full.jsonl:1: content_field: prompt_text: content field is not allowed at standard level\n\
         examples/traces/full.jsonl:1: content_field: output_text: content field is not allowed at standard level\n"
    );
    assert!(!r.stdout.contains("Northwind"));
}

#[test]
fn check_json_findings_follow_the_spec_shape() {
    let r = tracegate(
        &["check", "--policy", DEFAULT, "--format", "json", "-"],
        b"{\"request_id\":\"chatcmpl-1\",\"prompt_text\":\"hi\"}\nnot json\n",
    );
    assert_eq!(r.code, 1);
    let lines: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0],
        serde_json::json!({"type": "finding", "file": "<stdin>", "line": 1, "kind": "violation", "rule": "content_field",
            "field": "prompt_text", "message": "content field is not allowed at standard level"})
    );
    assert_eq!(lines[2]["type"], "summary");
    assert_eq!(lines[1]["kind"], "malformed");
    assert_eq!(lines[1]["rule"], "invalid_json");
    assert_eq!(lines[1]["line"], 2);
    assert_eq!(r.stderr.trim(), "2 records, 1 violation, 1 malformed");
}

#[test]
fn check_exit_codes_cover_usage_policy_and_io_errors() {
    // Unknown flag: clap's usage error.
    assert_eq!(tracegate(&["check", "--bogus"], b"").code, 2);
    // Missing policy file.
    let r = tracegate(&["check", "--policy", "nope.toml", "-"], b"");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("nope.toml: cannot read policy: no such file"),
        "{}",
        r.stderr
    );
    // Invalid policy.
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.toml", "[limits]\nmax_line_bytse = 1\n");
    let r = tracegate(&["check", "--policy", bad.to_str().unwrap(), "-"], b"");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("bad.toml:2:1: unknown key `max_line_bytse` in [limits]"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("did you mean `max_line_bytes`?"),
        "{}",
        r.stderr
    );
    // Missing input file: the other inputs are still checked, exit 2.
    let r = tracegate(
        &[
            "check",
            "--policy",
            DEFAULT,
            "missing.jsonl",
            "examples/traces/full.jsonl",
        ],
        b"",
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("cannot open `missing.jsonl`"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("full.jsonl:1: content_field"));
}

#[test]
fn every_malformed_class_is_reported_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let policy = write(dir.path(), "p.toml", "[limits]\nmax_line_bytes = 200\n");
    let mut input = Vec::new();
    input.extend_from_slice(b"{\"request_id\":\"chatcmpl-1\"}\r\n"); // 1 ok, CRLF
    input.extend_from_slice(b"\n"); // 2 blank
    input.extend_from_slice(b"{\"a\":\"\xff\"}\n"); // 3 invalid utf-8
    input.extend_from_slice(b"{\"a\":\n"); // 4 invalid json
    input.extend_from_slice(b"[1]\n"); // 5 not object
    input.extend_from_slice(b"{\"output_tokens\":1,\"output\\u005ftokens\":2}\n"); // 6 duplicate
    input.extend_from_slice(format!("{{\"a\":{}{}}}\n", "[".repeat(64), "]".repeat(64)).as_bytes()); // 7 too deep
    input.extend_from_slice(format!("{{\"x\":\"{}\"}}\n", "y".repeat(300)).as_bytes()); // 8 too long
    let r = tracegate(
        &["check", "--policy", policy.to_str().unwrap(), "-"],
        &input,
    );
    assert_eq!(r.code, 1);
    let rules: Vec<(String, String)> = r
        .stdout
        .lines()
        .map(|l| {
            let mut parts = l.splitn(4, ": ");
            let loc = parts.next().unwrap().to_string();
            (loc, parts.next().unwrap().to_string())
        })
        .collect();
    let want = [
        ("<stdin>:3", "invalid_utf8"),
        ("<stdin>:4", "invalid_json"),
        ("<stdin>:5", "not_object"),
        ("<stdin>:6", "duplicate_key"),
        ("<stdin>:7", "too_deep"),
        ("<stdin>:8", "line_too_long"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(rules, want, "{}", r.stdout);
    assert!(
        r.stderr.contains("7 records, 0 violations, 6 malformed"),
        "{}",
        r.stderr
    );
}

#[test]
fn filter_strips_content_passes_clean_records_verbatim_and_counts() {
    let dir = tempfile::tempdir().unwrap();
    let policy = standard_policy(dir.path(), "");
    let input = std::fs::read("examples/traces/mixed.jsonl").unwrap();
    let r = filter(policy.as_path(), "trace-file", &input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    let original: Vec<&str> = std::str::from_utf8(&input).unwrap().lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0], original[0], "clean records go out byte for byte");
    assert_eq!(lines[2], original[2]);
    assert!(!lines[1].contains("prompt_text") && !lines[1].contains("Northwind"));
    let v: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(v["request_id"], "chatcmpl-7d3fa9b2");
    assert_eq!(v.as_object().unwrap().len(), 10);
    assert!(
        r.stderr.contains("4 records: 4 passed (0 full, 1 stripped), 0 dropped, 0 malformed; findings: content_field 2"),
        "{}",
        r.stderr
    );
}

/// `filter` to a sink that is never full runs on every core: whatever
/// `--jobs`, the output is byte for byte that of one worker, in input
/// order, and the summary counts the same (clean, stripped, dropped and
/// malformed lines over many chunks, with a content canary that must never
/// come out).
#[test]
fn filter_to_a_standard_sink_is_the_same_on_every_number_of_workers() {
    let dir = tempfile::tempdir().unwrap();
    let policy = standard_policy(dir.path(), "");
    let mut input = String::new();
    for i in 0..40_000u32 {
        match i % 5 {
            0 => input.push_str(&format!(
                "{{\"request_id\": \"chatcmpl-{i:08x}\", \"prompt_tokens\": {i}}}\n"
            )),
            1 => input.push_str(&format!(
                "{{\"request_id\": \"chatcmpl-{i:08x}\", \"prompt_text\": \"canary-{i} secret\"}}\n"
            )),
            2 => input.push_str(&format!(
                "{{\"request_id\": \"chatcmpl-{i:08x}\", \"prompt_tokens\": -{i}}}\n"
            )),
            3 => input.push_str("{\"request_id\": \n"),
            _ => input.push_str(&format!(
                "{{\"request_id\":\"chatcmpl-{i:x}\",\"t_arrival\":1e1}}\n"
            )),
        }
    }
    let runs: Vec<_> = ["1", "2", "4"]
        .iter()
        .map(|jobs| {
            let p = policy.to_str().unwrap();
            tracegate(
                &[
                    "filter",
                    "--policy",
                    p,
                    "--sink",
                    "trace-file",
                    "--jobs",
                    jobs,
                ],
                input.as_bytes(),
            )
        })
        .collect();
    let one = &runs[0];
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert!(
        !one.stdout.contains("canary"),
        "content reached a standard sink"
    );
    assert!(one.stdout.lines().count() > 20_000, "{}", one.stderr);
    for r in &runs[1..] {
        assert_eq!(r.code, one.code);
        assert!(r.stdout == one.stdout, "output differs from --jobs 1");
        assert_eq!(r.stderr, one.stderr);
    }
}

#[test]
fn filter_drops_a_record_or_a_field_on_a_constraint_violation() {
    let dir = tempfile::tempdir().unwrap();
    let input = b"{\"request_id\":\"Dear support, my card is 4111\",\"prompt_tokens\":3}\n{\"request_id\":\"chatcmpl-ab\",\"prompt_tokens\":4}\n";
    let policy = standard_policy(dir.path(), "");
    let r = filter(policy.as_path(), "trace-file", input);
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stdout,
        "{\"request_id\":\"chatcmpl-ab\",\"prompt_tokens\":4}\n"
    );
    assert!(r.stderr.contains("1 dropped"), "{}", r.stderr);
    assert!(!r.stderr.contains("Dear support"));

    let dir2 = tempfile::tempdir().unwrap();
    let policy = write(
        dir2.path(),
        "p.toml",
        "[standard]\non_violation = \"drop_field\"\n[[sink]]\nname = \"trace-file\"\n",
    );
    let r = filter(policy.as_path(), "trace-file", input);
    assert_eq!(
        r.stdout,
        "{\"prompt_tokens\":3}\n{\"request_id\":\"chatcmpl-ab\",\"prompt_tokens\":4}\n"
    );
    assert!(
        r.stderr
            .contains("2 passed (0 full, 1 stripped), 0 dropped"),
        "{}",
        r.stderr
    );
}

#[test]
fn filter_refuses_an_unknown_sink_with_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let policy = standard_policy(dir.path(), "");
    let r = filter(policy.as_path(), "trace-fil", b"");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("unknown sink `trace-fil` (did you mean `trace-file`?)"),
        "{}",
        r.stderr
    );
}

#[test]
fn filter_ends_quietly_on_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let policy = standard_policy(dir.path(), "");
    let line = "{\"request_id\":\"chatcmpl-9f2c41d0\",\"prompt_tokens\":1}\n";
    let input = line.repeat(200_000);
    let path = write(dir.path(), "in.jsonl", &input);
    let script = format!(
        "{} filter --policy {} --sink trace-file {} | head -n 1 >/dev/null; echo ${{PIPESTATUS[0]}}",
        env!("CARGO_BIN_EXE_tracegate"),
        policy.display(),
        path.display()
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "0", "{stderr}");
    assert!(
        !stderr.contains("Broken pipe") && !stderr.contains("panicked"),
        "{stderr}"
    );
}

#[test]
fn policy_check_lists_sinks_and_reports_every_error() {
    let r = tracegate(&["policy", "check", "examples/capture"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("replay-capture"), "{}", r.stdout);
    assert!(r.stdout.contains("full allowed"), "{}", r.stdout);
    let dir = tempfile::tempdir().unwrap();
    let bad = write(
        dir.path(),
        "bad.toml",
        "[[sink]]\nname = \"cap\"\nfull_alowed = true\n[standard]\non_violation = \"maybe\"\n",
    );
    let r = tracegate(&["policy", "check", bad.to_str().unwrap()], b"");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("full_alowed"), "{}", r.stderr);
}

/// A JSON string literal holding `s`, sometimes with escapes.
fn json_string(s: &str, escape: bool) -> String {
    if escape {
        let mut out = String::from("\"");
        for c in s.chars() {
            out.push_str(&format!("\\u{:04x}", c as u32));
        }
        out.push('"');
        out
    } else {
        serde_json::to_string(s).unwrap()
    }
}

/// Where a canary goes in a record.
#[derive(Debug, Clone)]
enum Plant {
    Content(&'static str),
    Unknown(String),
    RequestId,
    Family,
    Nested,
    InArray,
    AsNumberField,
}

fn plant_strategy() -> impl Strategy<Value = Plant> {
    prop_oneof![
        Just(Plant::Content("prompt_text")),
        Just(Plant::Content("output_text")),
        "[a-z_]{1,12}".prop_map(Plant::Unknown),
        Just(Plant::RequestId),
        Just(Plant::Family),
        Just(Plant::Nested),
        Just(Plant::InArray),
        Just(Plant::AsNumberField),
    ]
}

fn record(plant: &Plant, canary: &str, escape: bool) -> String {
    let c = json_string(canary, escape);
    let base = "\"t_arrival\":1789040112.104,\"prompt_tokens\":412";
    match plant {
        Plant::Content(f) => format!("{{\"request_id\":\"chatcmpl-9f2c41d0\",{base},\"{f}\":{c}}}"),
        Plant::Unknown(k) => format!("{{{base},\"x_{k}\":{c}}}"),
        Plant::RequestId => format!("{{\"request_id\":{c},{base}}}"),
        Plant::Family => format!("{{\"scheduler_family\":{c},{base}}}"),
        Plant::Nested => format!("{{{base},\"meta\":{{\"note\":{c}}}}}"),
        Plant::InArray => format!("{{{base},\"ttft_s\":[{c}]}}"),
        Plant::AsNumberField => format!("{{{base},\"e2e_latency_s\":{c}}}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// SECURITY: a canary planted anywhere in a record's values never
    /// reaches a standard sink's stdout, filter's stderr, or check's output.
    #[test]
    fn a_planted_canary_never_reaches_output(
        canary in "CANARY[A-Za-z0-9]{6,20}",
        plants in proptest::collection::vec((plant_strategy(), any::<bool>()), 1..12),
        on_violation in prop_oneof![Just("drop_record"), Just("drop_field")],
    ) {
        let dir = tempfile::tempdir().unwrap();
        let policy = standard_policy(dir.path(), "");
        let text = std::fs::read_to_string(&policy).unwrap();
        write(dir.path(), "policy.toml", &format!("[standard]\non_violation = \"{on_violation}\"\n{text}"));
        let mut input = String::new();
        for (plant, escape) in &plants {
            input.push_str(&record(plant, &canary, *escape));
            input.push('\n');
        }
        let p = policy.to_str().unwrap();
        let f = tracegate(&["filter", "--policy", p, "--sink", "trace-file"], input.as_bytes());
        prop_assert_eq!(f.code, 0, "{}", f.stderr);
        prop_assert!(!f.stdout.contains(&canary), "stdout: {}", f.stdout);
        prop_assert!(!f.stderr.contains(&canary));
        for fmt in ["text", "json"] {
            let c = tracegate(&["check", "--policy", p, "--format", fmt], input.as_bytes());
            prop_assert_eq!(c.code, 1);
            prop_assert!(!c.stdout.contains(&canary), "check: {}", c.stdout);
            prop_assert!(!c.stderr.contains(&canary));
        }
    }
}

/// The latency-evidence sample through `check`: it passes the privacy gate; alone in
/// a file, its `attempt: 2` has no attempt 1, which the auditor reports.
#[test]
fn check_runs_the_evidence_auditor_and_prints_the_summary() {
    let r = tracegate(
        &[
            "check",
            "--policy",
            DEFAULT,
            "--summary",
            "examples/traces/evidence.jsonl",
        ],
        b"",
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .starts_with("examples/traces/evidence.jsonl:1: attempts_not_sequential: attempt:"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("violation") && !r.stdout.contains("unknown_field"));
    assert!(
        r.stdout
            .contains("route route_example_b  model model_alias_example  records 1"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("gateway_observed_time_to_first_token              1      290.000"),
        "{}",
        r.stdout
    );
    assert_eq!(
        r.stderr.trim(),
        "1 record, 0 violations, 0 malformed, 1 evidence finding"
    );

    // --evidence-only hides privacy findings and keeps evidence ones.
    let line = std::fs::read_to_string("examples/traces/evidence.jsonl").unwrap();
    let tampered = line
        .replace(
            "\"status\": \"completed\"",
            "\"status\": \"completed\", \"note\": \"free text\"",
        )
        .replace("\"duration\": 290", "\"duration\": 310");
    let r = tracegate(
        &[
            "check",
            "--policy",
            DEFAULT,
            "--evidence-only",
            "--format",
            "json",
        ],
        tampered.as_bytes(),
    );
    let rules: Vec<String> = r
        .stdout
        .lines()
        .filter(|l| !l.starts_with("{\"type\":\"summary\""))
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["rule"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        rules,
        ["duration_mismatch", "attempts_not_sequential"],
        "{}",
        r.stdout
    );
    let r = tracegate(&["check", "--policy", DEFAULT], tampered.as_bytes());
    assert!(r.stdout.contains("unknown_field: note"), "{}", r.stdout);
    assert!(!r.stdout.contains("free text"));
}

/// Evidence identifiers are pseudonymized per sink: shape kept, value not.
#[test]
fn filter_pseudonymizes_evidence_identifiers() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("key"), "k".repeat(32)).unwrap();
    let policy = write(
        dir.path(),
        "p.toml",
        "[redact]\nkey_file = \"key\"\n[[sink]]\nname = \"evidence\"\npseudonymize = [\"trace_id\", \"request_id\", \"provider_request_id\", \"span_id\", \"parent_span_id\"]\n",
    );
    let line = std::fs::read("examples/traces/evidence.jsonl").unwrap();
    let r = filter(policy.as_path(), "evidence", &line);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    for (field, original) in [
        ("trace_id", "tr_synthetic_8f31"),
        ("request_id", "req_synthetic_2047"),
        ("span_id", "span_upstream_02"),
    ] {
        let got = v[field].as_str().unwrap();
        assert_ne!(got, original, "{field}");
        assert_eq!(got.len(), original.len(), "{field} keeps its shape: {got}");
    }
    assert!(!r.stdout.contains("synthetic_8f31"));
    assert_eq!(v["events"].as_array().unwrap().len(), 3);
}

/// OTLP lines go through the same commands: mixed files, detected per line.
#[test]
fn otlp_and_cf_lines_mix_in_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let policy = standard_policy(dir.path(), "");
    let mut input = std::fs::read_to_string("examples/traces/otlp-spans.jsonl").unwrap();
    input.push_str(&std::fs::read_to_string("examples/traces/full.jsonl").unwrap());
    let r = filter(policy.as_path(), "trace-file", input.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 4);
    assert!(
        !r.stdout.contains("gen_ai.prompt") && !r.stdout.contains("billing assistant"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("chatcmpl-850f15e9afd74036-82d9d8e1"));
    let c = tracegate(
        &["check", "--policy", DEFAULT, "--format", "json", "-"],
        input.as_bytes(),
    );
    assert_eq!(c.code, 1);
    let first: serde_json::Value = serde_json::from_str(c.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["line"], 2);
    assert_eq!(first["rule"], "content_field");
    assert_eq!(first["field"], "attributes[\"gen_ai.prompt\"]");
}

/// A full disk on stdout is an I/O error (exit 2) named as such.
#[test]
fn a_full_disk_on_stdout_is_reported_with_exit_2() {
    let bin = env!("CARGO_BIN_EXE_tracegate");
    for args in [
        vec![
            "filter",
            "--policy",
            "examples/capture",
            "--sink",
            "trace-file",
            "examples/traces/mixed.jsonl",
        ],
        vec!["check", "--policy", DEFAULT, "examples/traces/full.jsonl"],
    ] {
        let out = Command::new(bin)
            .args(&args)
            .current_dir(root())
            .stdout(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open("/dev/full")
                    .unwrap(),
            )
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("no space left on device"), "{stderr}");
    }
}
