//! Data-driven cases: each folder of `tests/data/cases/` holds a policy, an
//! input, and what `filter --sink trace-file` and `check` must produce
//! (`filter.out`, `filter.err`, `check.out`). Run with `TRACEGATE_BLESS=1`
//! to write the expectations after reviewing a change by hand.

use std::path::Path;

use super::cli::{root, tracegate};

fn compare(case: &Path, name: &str, got: &str) {
    let path = case.join(name);
    if std::env::var_os("TRACEGATE_BLESS").is_some() {
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing {}; run with TRACEGATE_BLESS=1", path.display()));
    assert_eq!(got, want, "{}", path.display());
}

#[test]
fn every_case_folder_produces_its_expected_output() {
    let dir = root().join("tests/data/cases");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cases.sort();
    assert!(cases.len() >= 3);
    for case in cases {
        let rel = case.strip_prefix(root()).unwrap();
        let policy = rel.join("policy.toml");
        let input = rel.join("input.jsonl");
        let (p, i) = (policy.to_str().unwrap(), input.to_str().unwrap());
        let f = tracegate(&["filter", "--policy", p, "--sink", "trace-file", i], b"");
        assert_eq!(f.code, 0, "{}: {}", case.display(), f.stderr);
        compare(&case, "filter.out", &f.stdout);
        compare(&case, "filter.err", &f.stderr);
        let c = tracegate(&["check", "--policy", p, i], b"");
        compare(
            &case,
            "check.out",
            &format!("exit {}\n{}{}", c.code, c.stdout, c.stderr),
        );
        // SECURITY: whatever the case, no output repeats a planted phrase.
        for phrase in [
            "escaped key spelling",
            "nested object",
            "my card is",
            "refund my order",
            "billing assistant",
        ] {
            assert!(
                !f.stdout.contains(phrase)
                    && !f.stderr.contains(phrase)
                    && !c.stdout.contains(phrase),
                "{}: {phrase}",
                case.display()
            );
        }
    }
}
