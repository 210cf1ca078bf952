//! Replays the committed fuzz seeds (`fuzz/seeds/<target>/*`) through the
//! fuzz targets' invariant functions, so the invariants run on stable in CI
//! without cargo-fuzz or nightly. The functions are compiled from the fuzz
//! crate's own source file (one source of truth, no `pub` testing API in
//! the library); see `fuzz/README.md`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../fuzz/src/invariants.rs"]
mod invariants;

use std::path::Path;

/// A fuzz target's invariant function.
type Check = fn(&[u8]);

const SEEDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/seeds");

/// Run `check` over every seed of `target`; there must be some.
fn replay(target: &str, check: Check) {
    let dir = Path::new(SEEDS).join(target);
    let mut n = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let data = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // Name the seed that broke an invariant.
        if let Err(e) = std::panic::catch_unwind(|| check(&data)) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{target}/{name}: {msg}");
        }
        n += 1;
    }
    assert!(n >= 3, "{target}: only {n} seeds in {}", dir.display());
}

#[test]
fn tape_scan_seeds() {
    replay("tape_scan", invariants::tape_scan);
}

#[test]
fn gate_judge_seeds() {
    replay("gate_judge", invariants::gate_judge);
}

#[test]
fn policy_compile_seeds() {
    replay("policy_compile", invariants::policy_compile);
}

#[test]
fn redact_seeds() {
    replay("redact", invariants::redact);
}

#[test]
fn otlp_protobuf_seeds() {
    replay("otlp_protobuf", invariants::otlp_protobuf);
}

/// Every line of the shipped example traces holds the gate invariants too.
#[test]
fn gate_judge_example_traces() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/traces");
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read(entry.unwrap().path()).unwrap();
        for line in text.split(|&b| b == b'\n') {
            invariants::tape_scan(line);
            invariants::gate_judge(line);
        }
    }
}

/// Inputs the fuzzers found that still break an invariant, kept in
/// `fuzz/known-failures/<target>/` (named after their cause) until the bug
/// is fixed. This test asserts they still fail, so CI stays green while the
/// bug stays visible and executable. **When it fails, the bug is fixed:**
/// move the file into `fuzz/seeds/<target>/`, where it guards the fix.
#[test]
fn known_failures_still_fail() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/known-failures");
    let targets: [(&str, Check); 4] = [
        ("tape_scan", invariants::tape_scan),
        ("gate_judge", invariants::gate_judge),
        ("policy_compile", invariants::policy_compile),
        ("redact", invariants::redact),
    ];
    for (target, check) in targets {
        let Ok(entries) = std::fs::read_dir(dir.join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                continue;
            }
            let data = std::fs::read(&path).unwrap();
            let prev = std::panic::take_hook();
            std::panic::set_hook(Box::new(|_| {}));
            let outcome = std::panic::catch_unwind(|| check(&data));
            std::panic::set_hook(prev);
            assert!(
                outcome.is_err(),
                "{target}/{}: no longer fails: the bug is fixed, move it to fuzz/seeds/{target}/",
                path.display()
            );
        }
    }
}

#[test]
fn otlp_json_encode_seeds() {
    replay("otlp_json_encode", invariants::otlp_json_encode);
}
