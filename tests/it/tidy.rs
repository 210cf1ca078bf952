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

/// Files declared as test-only modules (`#[cfg(test)] mod name;`).
fn test_only_files(root: &Path) -> Vec<PathBuf> {
    let mut all = Vec::new();
    rust_files(root, &mut all);
    let mut out = Vec::new();
    for f in &all {
        let text = std::fs::read_to_string(f).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for (i, l) in lines.iter().enumerate() {
            let Some(name) = l.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) else {
                continue;
            };
            let attrs = lines[..i].iter().rev().take_while(|a| a.starts_with("#["));
            if !attrs.into_iter().any(|a| *a == "#[cfg(test)]") {
                continue;
            }
            let dir = match f.file_name().and_then(|n| n.to_str()) {
                Some("mod.rs" | "lib.rs" | "main.rs") => f.parent().unwrap().to_path_buf(),
                _ => f.with_extension(""),
            };
            out.push(dir.join(format!("{name}.rs")));
            out.push(dir.join(name).join("mod.rs"));
        }
    }
    out
}

/// `text` without its `#[cfg(test)]` items (a module, a function, a
/// `use`): from the attribute to the end of the item's braces or `;`.
fn without_test_items(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        // The item ends at its first `;` before any `{`, or at the brace
        // that closes its first `{`.
        let mut depth = 0usize;
        let mut end = item.len();
        for (i, c) in item.char_indices() {
            match c {
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn test_items_are_cut_and_nothing_else() {
    let text = "use a;\n#[cfg(test)]\nuse std::fs;\nfn f() {}\n#[cfg(test)]\nmod tests {\n    fn g() { std::fs::read(\"x\"); }\n}\nfn h() { std::fs::write(); }\n";
    let code = without_test_items(text);
    assert!(code.contains("fn f() {}"));
    assert!(code.contains("fn h() { std::fs::write(); }"), "{code}");
    assert_eq!(code.matches("std::fs").count(), 1, "{code}");
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
    let test_only = test_only_files(&root);
    let mut offences = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if allowed.contains(&rel.as_str()) || test_only.contains(f) {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        // Test items may touch files (fixtures); every other line counts.
        let code = without_test_items(&text);
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
