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
/// decoding, the policy model, verification, redaction, the evidence
/// auditor and the per-sink decision are pure, so they can be tested and fuzzed without a world.
#[test]
fn the_core_does_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![root.join("decision.rs"), root.join("finding.rs")];
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

/// The allowed edges between the crate's top-level modules: `(from, to)`
/// means code in `src/<from>` may name `crate::<to>`. The layout follows
/// the data path (ARCHITECTURE.md): `source` -> `record` -> `gate` (with
/// `policy`, `redact`, `window`) -> `decision` -> `sink`, with `cli` and
/// `daemon` on top. A new edge is a design decision: add it here, in the
/// same change, and say why in the commit.
const ALLOWED_EDGES: &[(&str, &[&str])] = &[
    ("audit", &["io_text", "policy"]),
    (
        "cli",
        &[
            "audit", "daemon", "decision", "evidence", "finding", "fleet", "gate", "io_text",
            "policy", "record", "sink", "source", "window",
        ],
    ),
    (
        "daemon",
        &[
            "audit", "decision", "fleet", "gate", "policy", "record", "sink", "source", "tls",
            "window",
        ],
    ),
    ("decision", &["gate", "record", "source", "window"]),
    (
        "evidence",
        &["finding", "gate", "policy", "record", "source", "window"],
    ),
    // `redact`: the name of the over-budget pseudo-detector, which the
    // scan reports and `Rule` names.
    ("finding", &["redact"]),
    ("fleet", &["policy", "window"]),
    (
        "gate",
        &[
            "evidence", "finding", "policy", "record", "redact", "source", "window",
        ],
    ),
    ("io_text", &[]),
    // `gate`: the content-attribute matcher and the detector set a policy
    // compiles; `audit`: the policy's audit settings name the key type.
    (
        "policy",
        &["audit", "finding", "gate", "io_text", "redact", "tls"],
    ),
    // `policy`: the structure limits OTLP bounds are counted against.
    // `finding`: a malformed line names its `Rule`.
    ("record", &["finding", "policy"]),
    ("redact", &["policy"]),
    // `daemon`: the OTLP exporters share the gRPC codec and the sink
    // counters with the receivers.
    (
        "sink",
        &[
            "daemon", "decision", "gate", "policy", "record", "source", "tls",
        ],
    ),
    ("source", &[]),
    ("tls", &["policy"]),
    ("window", &["audit", "fleet", "policy", "record"]),
];

/// The top-level modules a piece of code names as `crate::X` (also inside
/// `use crate::{X::.., Y::..}`).
fn crate_edges(code: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        // `tracegate::crate::` cannot occur; `$crate::` is a macro's own.
        if code[..at].ends_with('$') {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0usize;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.insert(ident(&group[start..i]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.insert(ident(&group[start..i]));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(ident(rest));
        }
    }
    out.remove("");
    out
}

#[test]
fn crate_edges_reads_paths_and_groups() {
    let code = "use crate::gate::Gate;\nuse crate::{policy::Policy, window::{Level, clock}};\nlet x = crate::record::detect(l);\n$crate::finding";
    let got: Vec<String> = crate_edges(code).into_iter().collect();
    assert_eq!(got, ["gate", "policy", "record", "window"]);
}

/// Every `crate::X` a top-level module's non-test code names is an edge
/// of [`ALLOWED_EDGES`], and every top-level module is in the table.
#[test]
fn module_edges_are_the_ones_in_the_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offences = Vec::new();
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        if matches!(name.as_str(), "lib" | "main") {
            continue;
        }
        let mut files = Vec::new();
        if p.is_dir() {
            rust_files(&p, &mut files);
        } else if p.extension().is_some_and(|e| e == "rs") {
            files.push(p.clone());
        } else {
            continue;
        }
        seen.push(name.clone());
        let Some((_, allowed)) = ALLOWED_EDGES.iter().find(|(m, _)| *m == name) else {
            offences.push(format!(
                "src/{name}: a top-level module missing from ALLOWED_EDGES"
            ));
            continue;
        };
        let test_only = test_only_files(&root);
        for f in files.iter().filter(|f| !test_only.contains(f)) {
            let code = without_test_items(&std::fs::read_to_string(f).unwrap());
            for to in crate_edges(&code) {
                if to != name && !allowed.contains(&to.as_str()) {
                    let rel = f.strip_prefix(&root).unwrap().display().to_string();
                    offences.push(format!("{rel}: {name} -> {to} is not an allowed edge"));
                }
            }
        }
    }
    for (m, _) in ALLOWED_EDGES {
        if !seen.iter().any(|s| s == m) {
            offences.push(format!("ALLOWED_EDGES names `{m}`, which is not a module"));
        }
    }
    assert!(offences.is_empty(), "module edges: {offences:#?}");
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

/// The string literals of Rust source `text` (comments skipped), with
/// their escapes resolved: enough of Rust's lexer for message text.
fn string_literals(text: &str) -> Vec<String> {
    let b: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let word = |i: usize| i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_');
    while i < b.len() {
        match b[i] {
            '/' if b.get(i + 1) == Some(&'/') => {
                while i < b.len() && b[i] != '\n' {
                    i += 1;
                }
            }
            '/' if b.get(i + 1) == Some(&'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == '*' && b[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            'r' if !word(i) && matches!(b.get(i + 1), Some('"' | '#')) => {
                let mut j = i + 1;
                while b.get(j) == Some(&'#') {
                    j += 1;
                }
                if b.get(j) != Some(&'"') {
                    i += 1;
                    continue;
                }
                let hashes = j - i - 1;
                let close: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let rest: String = b[j + 1..].iter().collect();
                let end = rest.find(&close).unwrap();
                out.push(rest[..end].to_string());
                i = j + 1 + rest[..end].chars().count() + close.len();
            }
            '\'' => {
                // A char literal ('x', '\n', '\'') or a lifetime.
                match (b.get(i + 1), b.get(i + 2), b.get(i + 3)) {
                    (Some('\\'), _, _) => {
                        let mut j = i + 2;
                        while b[j] != '\'' || b[j - 1] == '\\' && j == i + 2 {
                            j += 1;
                        }
                        i = j + 1;
                    }
                    (Some(_), Some('\''), _) => i += 3,
                    _ => i += 1,
                }
            }
            '"' => {
                let mut s = String::new();
                let mut j = i + 1;
                while b[j] != '"' {
                    if b[j] == '\\' {
                        match b[j + 1] {
                            'n' => s.push('\n'),
                            't' => s.push('\t'),
                            'r' => s.push('\r'),
                            '0' => s.push('\0'),
                            '\n' => {
                                j += 2;
                                while b[j].is_whitespace() {
                                    j += 1;
                                }
                                continue;
                            }
                            c => s.push(c),
                        }
                        j += 2;
                    } else {
                        s.push(b[j]);
                        j += 1;
                    }
                }
                out.push(s);
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out
}

#[test]
fn string_literals_reads_what_rust_reads() {
    let text = "let a = \"x `y` \\\"q\\\"\"; // \"comment\"\nlet c = '\"'; let l: &'a str = r#\"raw \"`z`\"#; /* \"no\" */ f(\"two \\\n    lines\");";
    assert_eq!(
        string_literals(text),
        ["x `y` \"q\"", "raw \"`z`", "two lines"]
    );
}

/// Issue 30 item 8: every piece of policy syntax a policy error quotes
/// (`unbounded = true`, `drop_record`, `otlp+https://HOST:PORT`) survives the
/// public form (the audit log, `/v1/status`), which hides values: a hint
/// that loses its fix is no hint. Read from the messages and hints in
/// `src/policy` themselves: a literal quoted in backticks there is our own
/// text (values arrive through `{}`), so it must be a key name or in
/// `POLICY_SYNTAX`.
#[test]
fn policy_syntax_in_messages_keeps_its_quotes() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/policy"),
        &mut files,
    );
    let mut quoted = std::collections::BTreeSet::new();
    for f in &files {
        let code = without_test_items(&std::fs::read_to_string(f).unwrap());
        for lit in string_literals(&code) {
            for (i, seg) in lit.split('`').enumerate() {
                // Odd pieces lie between backticks; a `{x}` placeholder is
                // filled at run time (a value or a key), `{{` is a brace.
                let braces = seg.replace("{{", "").replace("}}", "");
                if i % 2 == 1 && !seg.is_empty() && !braces.contains('{') && !braces.contains('}') {
                    quoted.insert(seg.replace("{{", "{").replace("}}", "}"));
                }
            }
        }
    }
    assert!(
        quoted.contains("unbounded = true") && quoted.len() > 40,
        "the reader found {} quoted literals: {quoted:?}",
        quoted.len()
    );
    let hidden: Vec<&String> = quoted
        .iter()
        .filter(|q| {
            let msg = format!("see `{q}` here");
            tracegate::PolicyError::whole(Path::new("p.toml"), msg.clone()).public()
                != format!("p.toml: {msg}")
        })
        .collect();
    assert!(
        hidden.is_empty(),
        "policy syntax the public form of an error hides (add it to POLICY_SYNTAX in src/policy/error.rs): {hidden:?}"
    );
}

/// Issue 30 item 8: docs/reference.md lists the `window_closed` causes a
/// gate writes, exactly, before the `;` of its parenthesis (it once
/// promised `shutdown`, which gates stopped writing when `window_released`
/// came), and says when the others appear.
#[test]
fn the_reference_lists_the_close_causes_a_gate_writes() {
    use tracegate::CloseCause;
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reference.md"))
            .unwrap();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let at = text.find("`window_closed` (with `cause`:").unwrap() + 30;
    let par = &text[at..at + text[at..].find(')').unwrap()];
    let (written, rest) = par.split_once(';').unwrap_or((par, ""));
    let listed: Vec<&str> = written.split('`').skip(1).step_by(2).collect();
    let want: Vec<&str> = CloseCause::ALL
        .iter()
        .filter(|c| c.is_written())
        .map(|c| c.as_str())
        .collect();
    assert_eq!(listed, want, "docs/reference.md: {par}");
    for c in CloseCause::ALL.iter().filter(|c| !c.is_written()) {
        assert!(
            rest.contains(&format!("`{}` only in logs written before", c.as_str())),
            "docs/reference.md must say where `{}` comes from: {par}",
            c.as_str()
        );
    }
}
