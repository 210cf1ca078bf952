//! Rendered policy errors, as an operator reads them: data-driven from
//! `tests/data/policies/*.toml`, one snapshot each.

use std::path::Path;

use tracegate::Policy;

fn render(name: &str) -> String {
    let path = Path::new("tests/data/policies").join(format!("{name}.toml"));
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path)).unwrap();
    match Policy::from_toml(&path, &text) {
        Ok(_) => "valid".to_string(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn typos_are_all_reported_with_hints() {
    insta::assert_snapshot!(render("typos"));
}

#[test]
fn window_errors_are_all_reported() {
    insta::assert_snapshot!(render("windows"));
}

#[test]
fn rule_errors_are_all_reported() {
    insta::assert_snapshot!(render("rules"));
}

#[test]
fn full_capture_without_an_audit_log_is_refused() {
    insta::assert_snapshot!(render("no_audit"));
}

#[test]
fn syntax_errors_name_line_and_column() {
    insta::assert_snapshot!(render("syntax"));
}

/// Each error's public form (what the audit log and `/v1/status` show):
/// policy syntax kept, values hidden.
fn render_public(name: &str) -> String {
    let path = Path::new("tests/data/policies").join(format!("{name}.toml"));
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path)).unwrap();
    match Policy::from_toml(&path, &text) {
        Ok(_) => "valid".to_string(),
        Err(e) => e.0.iter().map(|e| e.public() + "\n").collect(),
    }
}

#[test]
fn public_forms_of_typos_keep_the_keys() {
    insta::assert_snapshot!(render_public("typos"));
}

#[test]
fn public_forms_of_window_errors_hide_the_names() {
    insta::assert_snapshot!(render_public("windows"));
}

#[test]
fn public_forms_of_rule_errors_keep_the_syntax() {
    insta::assert_snapshot!(render_public("rules"));
}

/// Issue 30 item 8, as an attacker would read the audit log: a value
/// written to break out of its quotes (a backtick, a double quote, a
/// backslash, an apostrophe) in every place a policy error echoes one
/// stays hidden whole in the public form, and the fix a message names
/// (`unbounded = true`) stays readable.
#[test]
fn public_errors_hide_a_value_whole_and_keep_the_fix() {
    // Northwind` Analytics " Corp's \ Ltd, as a TOML basic string.
    let v = r#""Northwind` Analytics \" Corp's \\ Ltd""#;
    let text = format!(
        "[standard]\non_violation = {v}\n\
         [standard.fields]\nf = {{ type = {v} }}\n\
         [redact]\nbuiltin = [{v}]\nallow_unredacted_sinks = [{v}]\n\
         [[redact.pattern]]\nname = \"p\"\nregex = \"x\"\naction = {v}\n\
         [[source]]\nkind = {v}\npath = \"in.jsonl\"\n\
         [audit]\npath = \"audit.jsonl\"\n\
         [[sink]]\nname = {v}\n[[sink]]\nname = {v}\n\
         [[window]]\nid = {v}\nsink = {v}\nstart = \"2026-12-01T10:00:00Z\"\nend = \"2026-12-01T11:00:00Z\"\nreason = \"r\"\nrequested_by = \"me\"\n\
         [[window]]\nid = {v}\nsink = \"nope\"\nstart = \"2026-12-01T12:00:00Z\"\nend = \"2026-12-01T13:00:00Z\"\nreason = \"r\"\nrequested_by = \"me\"\n"
    );
    let errors = Policy::from_toml(Path::new("p.toml"), &text).unwrap_err().0;
    let terminal: String = errors.iter().map(|e| format!("{e}\n")).collect();
    assert!(
        terminal.matches("Analytics").count() >= 9,
        "the terminal names the values: {terminal}"
    );
    for e in &errors {
        let public = e.public();
        for word in ["Northwind", "Analytics", "Corp", "Ltd"] {
            assert!(!public.contains(word), "{word} in {public:?}");
        }
    }

    // The issue's example: a window file without a budget.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("policy.toml"),
        "[audit]\npath = \"audit.jsonl\"\n[[sink]]\nname = \"cap\"\nfull_allowed = true\n",
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("windows")).unwrap();
    std::fs::write(
        dir.path().join("windows/w.toml"),
        "[[window]]\nid = \"w\"\nsink = \"cap\"\nstart = \"2026-12-01T10:00:00Z\"\nend = \"2026-12-01T11:00:00Z\"\nreason = \"r\"\nrequested_by = \"me\"\n",
    )
    .unwrap();
    let errors = Policy::load(dir.path()).unwrap_err();
    let public = errors.public_summary();
    assert!(
        public.ends_with(
            "a window in windows/ needs `max_records`, `max_bytes` or `unbounded = true`"
        ),
        "{public}"
    );
}
