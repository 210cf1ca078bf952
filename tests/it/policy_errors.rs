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
