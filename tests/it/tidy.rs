//! Tidy checks written as tests: rules of the codebase that a reviewer
//! should not have to remember.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The core does no IO and never imports tokio (ARCHITECTURE.md): record
/// decoding, the policy model, verification, redaction and the evidence
/// auditor are pure, so they can be tested and fuzzed without a world.
#[test]
fn the_core_does_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for dir in ["record", "gate", "redact", "evidence", "policy"] {
        rust_files(&root.join(dir), &mut files);
    }
    // The policy's IO lives in these two files, by design.
    let allowed = ["policy/load.rs", "policy/redaction.rs"];
    // (`std::net` address types are pure parsing; sockets are not.)
    let forbidden = [
        "std::fs",
        "TcpStream",
        "TcpListener",
        "UdpSocket",
        "tokio",
        "std::env",
        "File::open",
        "std::process",
    ];
    let mut offences = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if allowed.contains(&rel.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        // Test modules may touch files (fixtures); stop at the first one.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for word in forbidden {
            if code.contains(word) {
                offences.push(format!("{rel}: {word}"));
            }
        }
    }
    assert!(offences.is_empty(), "IO in the core: {offences:#?}");
}

/// Library code marks where it enforces a privacy guarantee.
#[test]
fn security_comments_mark_the_guarantees() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (file, at_least) in [
        ("gate/mod.rs", 2),
        ("record/tape.rs", 1),
        ("finding.rs", 1),
        ("window/runtime.rs", 2),
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let n = text.matches("SECURITY:").count();
        assert!(
            n >= at_least,
            "{file}: {n} SECURITY comments, expected at least {at_least}"
        );
    }
}
