//! The policy as its users meet it, through the real binary: `policy init`
//! (and `serve` running what it wrote), `print-default`, `schema`,
//! allowlists that extend the defaults, every error at once with its line,
//! `--error-format json`, and `${env:VAR}`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

use crate::serve::{http, poll};

/// The binary under test. `TRACEGATE_TEST_BIN` runs these tests against
/// another build (how they were checked to fail on the code before them).
fn bin() -> PathBuf {
    std::env::var_os("TRACEGATE_TEST_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_tracegate")))
}

fn run(args: &[&str], env: &[(&str, &str)], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .env_remove("TRACEGATE_REDACT_KEY")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    if let Some(text) = stdin {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A cf record with the ten standard fields, one extra field and content.
const RECORD: &str = r#"{"request_id":"chatcmpl-abc","t_arrival":1.0,"t_completion":2.0,"prompt_tokens":3,"output_tokens":4,"e2e_latency_s":1.0,"ttft_s":0.1,"queue_wait_s":0.0,"scheduler_family":"ltr","priority_score":null,"tenant_tier":"gold","prompt_text":"my card is 4111 1111 1111 1111"}"#;

/// Run `filter` for `sink` on [`RECORD`] and parse the one output line.
fn filtered(policy: &Path, sink: &str) -> serde_json::Map<String, Value> {
    let out = run(
        &["filter", "--policy", p(policy), "--sink", sink],
        &[],
        Some(&format!("{RECORD}\n")),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let line = text(&out.stdout);
    if line.trim().is_empty() {
        // The record was dropped.
        return serde_json::Map::new();
    }
    let v: Value = serde_json::from_str(line.trim()).unwrap();
    v.as_object().unwrap().clone()
}

struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn init_writes_a_policy_that_check_accepts_and_serve_runs_as_written() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("policy");
    let out = run(
        &["policy", "init", "--otel-genai", "--dir", p(&dir)],
        &[],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    for f in ["policy.toml", "otel-genai.toml", "windows"] {
        assert!(dir.join(f).exists(), "{f}");
    }
    let starter = std::fs::read_to_string(dir.join("policy.toml")).unwrap();
    assert!(starter.lines().filter(|l| l.starts_with('#')).count() > 10);

    let check = run(&["policy", "check", p(&dir)], &[], None);
    assert!(check.status.success(), "{}", text(&check.stderr));
    let shown = text(&check.stdout);
    assert!(
        shown.contains("capture                  full allowed"),
        "{shown}"
    );
    assert!(shown.contains("gen_ai.request.model"), "{shown}");

    // The GenAI allowlist passes metadata and removes content.
    let genai = tmp.path().join("genai.jsonl");
    let span = serde_json::json!({
        "name": "chat",
        "traceId": "0af7651916cd43dd8448eb211c80319c",
        "spanId": "b7ad6b7169203331",
        "startTimeUnixNano": "1700000000000000000",
        "endTimeUnixNano": "1700000001000000000",
        "attributes": [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
            {"key": "gen_ai.request.model", "value": {"stringValue": "gpt-4o"}},
            {"key": "gen_ai.usage.input_tokens", "value": {"intValue": "12"}},
            {"key": "gen_ai.input.messages", "value": {"stringValue": "[{\"role\":\"user\",\"content\":\"hello Contoso\"}]"}}
        ]
    });
    std::fs::write(&genai, format!("{span}\n")).unwrap();
    let out = run(
        &["filter", "--policy", p(&dir), "--sink", "traces", p(&genai)],
        &[],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let got = text(&out.stdout);
    assert!(
        got.contains("gen_ai.request.model") && got.contains("gpt-4o"),
        "{got}"
    );
    assert!(
        !got.contains("Contoso") && !got.contains("gen_ai.input.messages"),
        "{got}"
    );

    // `serve` runs the folder as written (only the port is the test's).
    let ready = tmp.path().join("ready");
    let log = std::fs::File::create(tmp.path().join("serve.log")).unwrap();
    let child = Command::new(bin())
        .args(["serve", "--policy", p(&dir), "--listen", "127.0.0.1:0"])
        .args(["--ready-file", p(&ready)])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    let mut serve = Serve(child);
    let addr = poll("the ready file", || {
        std::fs::read_to_string(&ready)
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    });
    let resp = http(
        &addr,
        "POST",
        "/v1/records",
        &[],
        format!("{RECORD}\n").as_bytes(),
    );
    assert!(resp.status < 300, "{} {}", resp.status, resp.text());
    let written = poll("the standard sink's file", || {
        std::fs::read_to_string(dir.join("data/standard.jsonl"))
            .ok()
            .filter(|s| s.contains("chatcmpl-abc"))
    });
    assert!(!written.contains("4111"), "content reached a standard sink");
    assert!(dir.join("audit.jsonl").exists(), "the audit log is written");
    let pid = serve.0.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let code = poll("serve to exit", || serve.0.try_wait().unwrap());
    let log = std::fs::read_to_string(tmp.path().join("serve.log")).unwrap_or_default();
    assert_eq!(code.code(), Some(0), "{log}");
}

#[test]
fn init_never_writes_into_an_existing_folder_or_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("existing");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("policy.toml"), "version = 1\n# mine\n").unwrap();
    let out = run(&["policy", "init", "--dir", p(&dir)], &[], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not an empty folder"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("policy.toml")).unwrap(),
        "version = 1\n# mine\n"
    );
    assert!(!dir.join("windows").exists());
    // A file in the way, likewise; and nothing is left behind.
    let file = tmp.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let out = run(&["policy", "init", "--dir", p(&file)], &[], None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
    let names: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    // An empty folder is fine.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = run(&["policy", "init", "--dir", p(&empty)], &[], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(empty.join("policy.toml").exists());
}

#[test]
fn print_default_prints_the_shipped_defaults_and_they_are_what_an_empty_policy_means() {
    let out = run(&["policy", "print-default"], &[], None);
    assert!(out.status.success());
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("policies/default.toml"),
    )
    .unwrap();
    assert!(
        text(&out.stdout) == shipped,
        "policies/default.toml is stale: run `tracegate policy print-default > policies/default.toml`"
    );
    // Filtering with the printed defaults equals filtering with an empty policy.
    let tmp = tempfile::tempdir().unwrap();
    let printed = tmp.path().join("printed.toml");
    std::fs::write(
        &printed,
        format!("{}\n[[sink]]\nname = \"s\"\n", text(&out.stdout)),
    )
    .unwrap();
    let empty = tmp.path().join("empty.toml");
    std::fs::write(&empty, "[[sink]]\nname = \"s\"\n").unwrap();
    assert_eq!(filtered(&printed, "s"), filtered(&empty, "s"));
}

#[test]
fn a_field_added_to_an_allowlist_extends_the_defaults_unless_the_table_replaces_them() {
    let tmp = tempfile::tempdir().unwrap();
    let policy = |name: &str, body: &str| {
        let f = tmp.path().join(name);
        std::fs::write(&f, format!("{body}\n[[sink]]\nname = \"s\"\n")).unwrap();
        f
    };
    let tier = "tenant_tier = { type = \"string\", one_of = [\"gold\", \"silver\"] }\n";
    // One field added: the ten defaults stay (this used to yield only it).
    let added = filtered(
        &policy("added.toml", &format!("[standard.fields]\n{tier}")),
        "s",
    );
    assert_eq!(added.len(), 11, "{added:?}");
    assert_eq!(added["tenant_tier"], "gold");
    assert_eq!(added["request_id"], "chatcmpl-abc");
    assert!(!added.contains_key("prompt_text"));
    // Said explicitly: only what the table lists.
    let replaced = filtered(
        &policy(
            "replaced.toml",
            &format!("[standard.fields]\nreplace_defaults = true\n{tier}"),
        ),
        "s",
    );
    assert_eq!(replaced.keys().collect::<Vec<_>>(), vec!["tenant_tier"]);
    // A policy that lists the ten defaults itself still works.
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("policies/default.toml"),
    )
    .unwrap();
    let all = filtered(&policy("all.toml", &format!("{shipped}\n")), "s");
    assert_eq!(all.len(), 10);
    // A user rule for a default name replaces that rule whole.
    let own = filtered(
        &policy(
            "own.toml",
            "[standard.fields]\nrequest_id = { type = \"string\", max_len = 4, free_text = true }\n",
        ),
        "s",
    );
    assert!(
        own.is_empty(),
        "the stricter user rule drops the record: {own:?}"
    );
    // `policy check` says where each rule comes from.
    let f = policy(
        "shown.toml",
        &format!(
            "[standard.fields]\n{tier}[standard.otlp.span_attributes]\nreplace_defaults = true\n\"x.y\" = {{ type = \"integer\" }}\n"
        ),
    );
    let out = run(&["policy", "check", p(&f)], &[], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.contains("[standard.fields] 11 rules"), "{shown}");
    assert!(
        shown.contains(&format!("{}: tenant_tier", f.display())),
        "{shown}"
    );
    assert!(shown.contains("built-in: e2e_latency_s"), "{shown}");
    assert!(
        shown.contains("[standard.otlp.span_attributes] 1 rule, replacing the built-in rules"),
        "{shown}"
    );
}

#[test]
fn allowlists_in_two_files_merge_and_a_rule_written_twice_names_both() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(
        dir.join("a.toml"),
        "[[sink]]\nname = \"s\"\n[standard.fields]\ntenant_tier = { type = \"string\", free_text = true }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("b.toml"),
        "[standard.fields]\nregion = { type = \"string\", free_text = true }\n",
    )
    .unwrap();
    let out = run(&["policy", "check", p(&dir)], &[], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("[standard.fields] 12 rules"));
    std::fs::write(
        dir.join("b.toml"),
        "[standard.fields]\ntenant_tier = { type = \"integer\" }\n",
    )
    .unwrap();
    let out = run(&["policy", "check", p(&dir)], &[], None);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("b.toml:2:1: key `standard.fields.tenant_tier` is defined twice"),
        "{err}"
    );
    assert!(err.contains("a.toml:4:1"), "{err}");
}

/// Ten mistakes of every stage in one policy.
const TEN_MISTAKES: &str = r#"version = 1
[server]
max_spans = "many"
[audit]
path = "audit.jsonl"
[standard]
on_violation = "drop_recrod"
[standard.fields]
tenant = { type = "strng" }
x = { type = "string", patern = "a" }
[[sink]]
name = "cap"
full_allowed = true
outptu = "stdout"
[[window]]
id = "w1"
sink = "cap"
start = "2026-12-01T10:00:00Z"
reason = "r"
requested_by = "me"
[redact]
builtin = ["emial"]
[[redact.pattern]]
name = "inv"
regex = "("
[[redact.keywords]]
name = "cust"
words = ["Northwind Analytics", 7]
action = "hsah"
[[redact.keywords]]
name = "list"
file = "missing-customers.txt"
"#;

/// Each `(line, col, what)` is an error line of `err` that starts with
/// `error: FILE:LINE:COL: ` and says `what`.
fn errors_at(err: &str, file: &str, cases: &[(usize, usize, &str)]) {
    for (line, col, what) in cases {
        let want = format!("error: {file}:{line}:{col}: ");
        let at = err
            .lines()
            .find(|l| l.starts_with(&want))
            .unwrap_or_else(|| panic!("no error at {line}:{col} in\n{err}"));
        assert!(at.contains(what), "{at}\n wanted {what}");
    }
}

/// `policy check` of `policy`, written to `bad.toml` in `dir`, exits 2:
/// the file's name and the stderr.
fn check_refuses(dir: &Path, policy: &str) -> (String, String) {
    let f = dir.join("bad.toml");
    std::fs::write(&f, policy).unwrap();
    let out = run(&["policy", "check", p(&f)], &[], None);
    assert_eq!(out.status.code(), Some(2));
    (f.display().to_string(), text(&out.stderr))
}

/// A detector's name with a backtick in it (shown escaped, `\``) is still
/// matched back to its table: the errors point at the pattern's lines, not
/// at `[redact]` (1:1), where they pointed while the lookup escaped names
/// differently from the redactor's errors.
#[test]
fn an_error_about_a_name_with_a_backtick_points_at_its_table() {
    let tmp = tempfile::tempdir().unwrap();
    let policy = "[redact]\nbuiltin = []\n[[redact.pattern]]\nname = \"in`v\"\nregex = \"(\"\n\
                  [[sink]]\nname = \"s\"\n";
    let (f, err) = check_refuses(tmp.path(), policy);
    errors_at(
        &err,
        &f,
        &[
            (3, 1, "detector name `in\\`v` is invalid"),
            (5, 9, "pattern `in\\`v` does not compile"),
        ],
    );
}

#[test]
fn every_error_of_every_stage_is_shown_at_once_where_it_is() {
    let tmp = tempfile::tempdir().unwrap();
    let (f, err) = check_refuses(tmp.path(), TEN_MISTAKES);
    errors_at(
        &err,
        &f,
        &[
            (3, 13, "`server.max_spans` must be an integer, not a string"),
            (7, 16, "unknown `on_violation` value"),
            (9, 19, "unknown type `strng`"),
            (10, 24, "unknown key `patern` in [standard.fields.x]"),
            (14, 1, "unknown key `outptu` in [[sink]]"),
            (15, 1, "[[window]] has no `end`"),
            (22, 12, "unknown builtin detector"),
            (25, 9, "pattern `inv` does not compile"),
            (
                28,
                33,
                "`redact.keywords.words` must be a string, not an integer",
            ),
            (29, 10, "unknown action"),
            (32, 8, "redact keywords `list`: cannot read"),
        ],
    );
    assert!(err.contains("is invalid (11 errors)"), "{err}");
    // The offending line with a caret, and a hint.
    assert!(err.contains(" 10 | x = { type = \"string\", patern = \"a\" }\n    |                        ^^^^^^\n  help: did you mean `pattern`?"), "{err}");
    // SECURITY: a keyword list's line is never shown, nor its words.
    assert!(!err.contains("Northwind"), "{err}");
    assert!(!err.contains(" 28 |"), "{err}");

    // The same errors as JSON for editors and CI.
    let out = run(
        &["policy", "check", "--error-format", "json", &f],
        &[],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 12, "{lines:#?}");
    let summary = lines.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["errors"], 11);
    assert_eq!(summary["valid"], false);
    let patern = lines
        .iter()
        .find(|e| e["message"].as_str().unwrap().contains("patern"))
        .unwrap();
    assert_eq!(patern["type"], "error");
    assert_eq!(patern["file"], f.as_str());
    assert_eq!(
        (patern["line"].as_u64(), patern["column"].as_u64()),
        (Some(10), Some(24))
    );
    assert_eq!(patern["key"], "standard.fields.x.patern");
    assert_eq!(patern["hint"], "did you mean `pattern`?");
    assert!(!text(&out.stdout).contains("Northwind"));

    // A valid policy: one summary object with its digest.
    let ok = tmp.path().join("ok.toml");
    std::fs::write(&ok, "version = 1\n").unwrap();
    let out = run(
        &["policy", "check", "--error-format", "json", p(&ok)],
        &[],
        None,
    );
    assert!(out.status.success());
    let v: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["valid"], true);
    assert_eq!(v["sha256"].as_str().unwrap().len(), 64);
}

/// An error on a line that may hold a credential (a budget store URL with
/// a password) or a customer list (keywords) names the file and line but
/// never shows the line, however the key is spelt and whatever is wrong
/// with its value.
#[test]
fn a_line_that_may_hold_a_password_or_a_customer_list_is_never_shown() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("policy.toml");
    for (body, says) in [
        (
            "[fleet]\nbudget_store = \"redis://u:hunter2-SECRET@h:1\"\n",
            "holds a password",
        ),
        (
            "[fleet]\nbudget_stor = \"redis://u:hunter2-SECRET@h:1\"\n",
            "unknown key `budget_stor` in [fleet]",
        ),
        (
            "[fleet]\nstore = \"redis://u:hunter2-SECRET@h:1\"\n",
            "unknown key `store` in [fleet]",
        ),
        (
            "[fleet]\nbudget_store = [\"redis://u:hunter2-SECRET@h:1\"]\n",
            "`fleet.budget_store` must be a string",
        ),
        (
            "[[redact.keywords]]\nname = \"k\"\nword = [\"hunter2-SECRET\"]\n",
            "unknown key `word` in [[redact.keywords]]",
        ),
    ] {
        std::fs::write(&f, body).unwrap();
        for format in ["text", "json"] {
            let out = run(
                &["policy", "check", "--error-format", format, p(&f)],
                &[],
                None,
            );
            assert_eq!(out.status.code(), Some(2), "{body}");
            let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
            assert!(all.contains(says), "{body}: {all}");
            assert!(!all.contains("hunter2"), "{body}: {all}");
        }
    }
}

#[test]
fn env_references_expand_where_safe_are_in_the_digest_and_are_refused_elsewhere() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("p.toml");
    std::fs::write(
        &f,
        "[server]\nlisten = \"127.0.0.1:${env:TG_PORT}\"\n[[sink]]\nname = \"s\"\noutput = \"file:${env:TG_OUT}/s.jsonl\"\n",
    )
    .unwrap();
    let check = |env: &[(&str, &str)]| run(&["policy", "check", p(&f)], env, None);
    let a = check(&[("TG_PORT", "4444"), ("TG_OUT", "out-a")]);
    assert!(a.status.success(), "{}", text(&a.stderr));
    let shown = text(&a.stdout);
    assert!(
        shown.contains(&format!(
            "file:{}",
            tmp.path().join("out-a/s.jsonl").display()
        )),
        "{shown}"
    );
    assert!(shown.contains("env_var"), "{shown}");
    let digest = |o: &Output| {
        text(&o.stdout)
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("sha256")
                    .map(|s| s.trim().to_string())
            })
            .unwrap()
    };
    let b = check(&[("TG_PORT", "4444"), ("TG_OUT", "out-b")]);
    assert_ne!(
        digest(&a),
        digest(&b),
        "a changed variable is a changed policy"
    );
    let a2 = check(&[("TG_PORT", "4444"), ("TG_OUT", "out-a")]);
    assert_eq!(digest(&a), digest(&a2));
    // Unset: an error naming the variable and the key, never a raw path.
    let unset = check(&[("TG_PORT", "4444")]);
    assert_eq!(unset.status.code(), Some(2));
    let err = text(&unset.stderr);
    assert!(
        err.contains("environment variable `TG_OUT` (used in `sink.output`) is not set"),
        "{err}"
    );
    assert!(err.contains("(1 error)"), "{err}");
    // Refused where the environment could widen what reaches a sink.
    for (table, key) in [
        ("[audit]", "path = \"${env:TG_OUT}/a.jsonl\""),
        ("[redact]", "key_file = \"${env:TG_OUT}\""),
        ("[standard]", "on_violation = \"${env:TG_OUT}\""),
        ("[full]", "content_fields = [\"${env:TG_OUT}\"]"),
        (
            "[[sink]]\nname = \"cap\"\nfull_allowed = true\n[audit]\npath = \"a.jsonl\"\n[[sink]]",
            "name = \"cap2\"\nfull_allowed = true\noutput = \"file:${env:TG_OUT}/c.jsonl\"",
        ),
    ] {
        std::fs::write(&f, format!("{table}\n{key}\n")).unwrap();
        let out = check(&[("TG_OUT", "x")]);
        assert_eq!(out.status.code(), Some(2), "{table} {key}");
        assert!(
            text(&out.stderr).contains("is not expanded"),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn the_checked_in_json_schema_is_the_generated_one() {
    let out = run(&["policy", "schema"], &[], None);
    assert!(out.status.success());
    let checked_in = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("policies/policy.schema.json"),
    )
    .unwrap();
    assert!(
        text(&out.stdout) == checked_in,
        "policies/policy.schema.json is stale: run `tracegate policy schema > policies/policy.schema.json`"
    );
}

/// The key rows of `docs/policy.md`, by section title (`[server]`,
/// `[[sink]]`, `` for the top level, `field rule`, `allowlist`): each key
/// with its default cell.
fn documented_keys() -> std::collections::BTreeMap<String, Vec<(String, String, String)>> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/policy.md"))
        .unwrap();
    let mut out: std::collections::BTreeMap<String, Vec<(String, String, String)>> =
        Default::default();
    let mut current: Option<String> = None;
    for line in doc.lines() {
        if let Some(h) = line
            .strip_prefix("## ")
            .or_else(|| line.strip_prefix("### "))
        {
            current = Some(match h.trim() {
                "Top level" => String::new(),
                "Field rules" => "field rule".to_string(),
                "Allowlist tables" => "allowlist".to_string(),
                other => other.trim_matches('`').to_string(),
            });
            continue;
        }
        if let (Some(section), true) = (&current, line.starts_with("| `")) {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let key = cells[1].trim_matches('`').to_string();
            out.entry(section.clone()).or_default().push((
                key,
                cells.get(3).unwrap_or(&"").to_string(),
                cells.get(4).unwrap_or(&"").to_string(),
            ));
        }
    }
    out
}

#[test]
fn the_reference_documents_exactly_the_accepted_keys_and_the_shipped_defaults() {
    use tracegate::internals::policy::keys::{Shape, all_tables, find, table_title};
    let docs = documented_keys();
    let mut seen = Vec::new();
    for (path, array, t) in all_tables(tracegate::internals::policy::schema::root()) {
        let title = match path.as_str() {
            "" | "field rule" => path.clone(),
            _ => table_title(&path, array),
        };
        let mut accepted: Vec<&str> = (t.keys)().iter().map(|k| k.name).collect();
        accepted.sort_unstable();
        let mut written: Vec<&str> = docs
            .get(&title)
            .map(|rows| rows.iter().map(|(k, _, _)| k.as_str()).collect())
            .unwrap_or_default();
        written.sort_unstable();
        assert_eq!(written, accepted, "docs/policy.md, section `{title}`");
        // Each key's range and default cells say what its spec says.
        for k in (t.keys)() {
            let Some((_, default, range)) = docs[&title].iter().find(|(d, _, _)| d == k.name)
            else {
                continue;
            };
            assert_eq!(
                range,
                &k.spec.check.describe(),
                "docs/policy.md: the range of `{title}` `{}`",
                k.name
            );
            if let Some(want) = k.spec.default.toml() {
                assert!(
                    default.contains(&format!("`{want}`")),
                    "docs/policy.md: `{title}` `{}` defaults to `{want}`, docs say {default}",
                    k.name
                );
            }
        }
        seen.push(title);
    }
    seen.push("allowlist".to_string());
    let extra: Vec<&String> = docs.keys().filter(|k| !seen.contains(k)).collect();
    assert!(
        extra.is_empty(),
        "docs/policy.md documents tables that do not exist: {extra:?}"
    );
    assert_eq!(
        docs["allowlist"][0].0,
        tracegate::internals::policy::keys::REPLACE_DEFAULTS
    );

    // Every plain value of the shipped defaults is the default the docs state.
    let shipped: toml::Table = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("policies/default.toml"),
    )
    .unwrap()
    .parse()
    .unwrap();
    let mut checked = 0;
    let mut stack = vec![(
        String::new(),
        shipped,
        tracegate::internals::policy::schema::root(),
    )];
    while let Some((path, table, shape)) = stack.pop() {
        for (k, v) in table {
            let key = find((shape.keys)(), &k)
                .unwrap_or_else(|| panic!("`{k}` in default.toml is not a key"));
            let sub = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            match ((key.shape)(), v) {
                (Shape::Table(inner), toml::Value::Table(t)) => stack.push((sub, t, inner)),
                (Shape::Named(inner), toml::Value::Table(named)) => {
                    let Shape::Table(inner) = inner() else {
                        panic!("`{sub}` holds tables")
                    };
                    for (_, t) in named {
                        let toml::Value::Table(t) = t else {
                            panic!("`{sub}` holds tables")
                        };
                        stack.push((format!("{sub}.<detector>"), t, inner));
                    }
                }
                (Shape::Allowlist(_) | Shape::Rule(_) | Shape::Map(_), _)
                | (_, toml::Value::Array(_)) => {}
                (_, scalar) => {
                    let title = if path.is_empty() {
                        String::new()
                    } else {
                        format!("[{path}]")
                    };
                    let cell = &docs[&title].iter().find(|(d, _, _)| *d == k).unwrap().1;
                    let want = format!("`{scalar}`");
                    assert!(
                        cell.contains(&want),
                        "docs/policy.md: `{sub}` defaults to {want}, docs say {cell}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 20, "only {checked} defaults checked");
}

/// The project points nowhere outside its repository: its contract is
/// `docs/`, not a document beside the checkout.
#[test]
fn code_and_docs_cite_only_documents_in_the_repository() {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) {
        if p.is_dir() {
            for e in std::fs::read_dir(p).unwrap() {
                walk(&e.unwrap().path(), out);
            }
        } else if p
            .extension()
            .is_some_and(|e| ["rs", "md", "toml", "py", "sh"].iter().any(|x| e == *x))
        {
            out.push(p.to_path_buf());
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in [
        "src", "docs", "policies", "scripts", "benches", "examples", "tests/it",
    ] {
        walk(&root.join(d), &mut files);
    }
    for f in [
        "README.md",
        "SECURITY.md",
        "ARCHITECTURE.md",
        "fuzz/README.md",
    ] {
        files.push(root.join(f));
    }
    let outside = [
        "../shared",
        "SPEC.md",
        "seed 000",
        "seed 002",
        "seed 003",
        "seed-000",
        "seed-002",
    ];
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        // This test's own list of what it looks for (one entry a line).
        let mut in_list = false;
        for (n, line) in text.lines().enumerate() {
            if line.contains("let outside = [") {
                in_list = true;
            }
            if in_list {
                in_list = !line.trim_end().ends_with("];");
                continue;
            }
            if outside.iter().any(|o| line.contains(o)) {
                found.push(format!(
                    "{}:{}: {}",
                    f.strip_prefix(root).unwrap().display(),
                    n + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "references outside the repository:\n{}",
        found.join("\n")
    );
}
