//! Tidy checks written as tests: rules of the codebase that a reviewer
//! should not have to remember.

use std::path::{Path, PathBuf};

/// The workspace's folder (the root package's).
fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The library crate's sources.
fn library_src() -> PathBuf {
    workspace().join("crates/tracegate/src")
}

/// Each crate's sources with its crate tag in [`LAYERS`]: the library, the
/// daemon, the command.
fn crate_sources() -> [(&'static str, PathBuf); 3] {
    [
        ("library", library_src()),
        ("daemon", workspace().join("crates/tracegate-daemon/src")),
        ("binary", workspace().join("src")),
    ]
}

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

/// What `code` (the file `rel` of `src`) calls in the policy's IO files
/// (`policy/load.rs`, `policy/redaction.rs`). Their functions are for the
/// policy's constructors (`policy/mod.rs`: the IO step) alone, but for the
/// pure ones named here; the rest of the core reaches files only through
/// them, so a call from elsewhere is IO in the core.
fn io_calls(rel: &str, code: &str) -> Vec<String> {
    let pure = ["key_fingerprint", "compile_detectors"];
    // Code only: a doc comment may name an IO function.
    let code: String = code
        .lines()
        .map(
            |l| match l.match_indices("//").find(|(i, _)| !l[..*i].ends_with(':')) {
                Some((i, _)) => &l[..i],
                None => l,
            },
        )
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    for path in crate_paths(&code, &module_of(Path::new(rel))) {
        let Some(at) = path
            .windows(2)
            .position(|w| w[0] == "policy" && (w[1] == "load" || w[1] == "redaction"))
        else {
            continue;
        };
        if let Some(item) = path.get(at + 2)
            && item.starts_with(|c: char| c.is_ascii_lowercase())
            && !pure.contains(&item.as_str())
        {
            out.push(format!("{rel}: calls `{}`", path.join("::")));
        }
    }
    out
}

#[test]
fn io_through_the_policys_io_files_is_caught() {
    // What `policy/tls.rs` did before it stopped reading files itself.
    let found = io_calls(
        "policy/tls.rs",
        "use super::load::read_regular;\nuse super::redaction::key_fingerprint;",
    );
    assert_eq!(found, ["policy/tls.rs: calls `policy::load::read_regular`"]);
    let found = io_calls(
        "gate/mod.rs",
        "use crate::policy::{load::{PolicyFile, read_policy}, redaction::build};",
    );
    assert_eq!(found.len(), 2, "{found:?}");
    // Types, constants and the pure functions are no IO.
    assert!(io_calls("policy/compile.rs", "use super::load::{PolicyFile, SETTLE};\nuse crate::policy::redaction::{DetectorsBroken, compile_detectors};").is_empty());
    // A comment that names one is no call.
    assert!(
        io_calls(
            "policy/paths.rs",
            "/// [`super::load::canonical`]\nlet u = \"otlp+grpc://h\"; // super::load::pause"
        )
        .is_empty()
    );
    assert_eq!(
        io_calls(
            "policy/paths.rs",
            "let u = \"otlp+grpc://h\"; super::load::pause(d);"
        )
        .len(),
        1
    );
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
    let root = library_src();
    let mut files = vec![root.join("decision.rs"), root.join("finding.rs")];
    for dir in ["record", "gate", "redact", "evidence", "policy"] {
        rust_files(&root.join(dir), &mut files);
    }
    // The policy's IO lives in these two files, by design (the TLS files
    // and tokens are read in `load.rs`; `tls.rs` holds their types).
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
        // Nor through the IO files.
        if rel != "policy/mod.rs" {
            offences.extend(io_calls(&rel, &code));
        }
    }
    assert!(offences.is_empty(), "IO in the core: {offences:#?}");
}

/// The layers of the crate, lowest first, each tagged with the crate of
/// the planned split it goes to: the library others embed, the daemon
/// around it, the `tracegate` binary. A module may name only modules of a
/// lower layer (and itself): no two modules name each other, so the table
/// is the layering, and the split is moving folders. An entry is a
/// top-level module or a module inside one that sits lower or higher than
/// its parent (`gate::detect`, `sink::writer`); a file belongs to the
/// longest entry that holds it.
///
/// A new edge is a design decision: a module that must name one above it
/// moves down (or the name it needs does), in the same change.
const LAYERS: &[(&str, &[&str])] = &[
    // Leaves: lines in, the redaction engine, text for humans, the one
    // table of OTLP's messages.
    ("library", &["io_text", "otlp_schema", "redact", "source"]),
    // Sealed capture's cryptography: keys, headers, sealed values (no IO,
    // names nothing of the crate; the policy parses `seal_to` with it).
    ("library", &["seal"]),
    // Findings and their rules (`detected_<detector>` names the engine's
    // detectors).
    ("library", &["finding"]),
    // The audit log: entries, the chain, checkpoints, verify.
    ("library", &["audit"]),
    // The policy: compiled from TOML, read with its files (the audit log's
    // checkpoint path is the log's).
    ("library", &["policy"]),
    // Formats, the tape, the OTLP codec (bounds counted against the
    // policy's limits).
    ("library", &["record"]),
    // A JSON record sealed and opened (on the tape); filter's sealing
    // writer, which seals cf records on its own thread.
    ("library", &["seal::cf"]),
    ("library", &["seal::pipe"]),
    // Which replica this is.
    ("library", &["fleet"]),
    // Levels, windows, budgets, the capture runtime (the fleet's shared
    // store comes as a client from the daemon's floor).
    ("library", &["window"]),
    // The standard level's detectors; then the scalar scanner and the
    // memo of passed values the gate's fast paths and the evidence fast
    // path share.
    ("library", &["gate::detect"]),
    ("library", &["gate::fast"]),
    ("library", &["gate::memo"]),
    // The latency-evidence auditor and its fast path (which the gate
    // holds).
    ("library", &["evidence"]),
    // The verdict on one record.
    ("library", &["gate"]),
    // The per-record, per-sink decision.
    ("library", &["decision"]),
    // The sink seam: `RecordSink`, `send`, `Lines`.
    ("library", &["sink"]),
    // The daemon's floor (feature `daemon`): rustls configurations and the
    // policy's TLS check, OTLP/gRPC on the wire, a sink's files, spool and
    // counters; then the exporters, the sink writers, `serve`. (The
    // fleet's Redis store is its own crate, `tracegate-fleet`, which names
    // only the library.)
    (
        "daemon",
        &[
            "otlp_grpc",
            "sink::counters",
            "sink::file",
            "sink::spool",
            "tls",
        ],
    ),
    ("daemon", &["sink::otlp"]),
    ("daemon", &["sink::writer"]),
    ("daemon", &["daemon"]),
    // The command line.
    ("binary", &["cli"]),
];

/// The crates of the planned split, in the order they may name each other.
const CRATES: &[&str] = &["library", "daemon", "binary"];

/// The module a file under `src` is: `gate/otlp/mod.rs` is
/// `["gate", "otlp"]`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut out: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if out.last().is_some_and(|l| l == "mod") {
        out.pop();
    }
    out
}

/// The index of the entry of [`LAYERS`] that holds `path` (the longest
/// one), and its layer.
fn entry_of(path: &[String]) -> Option<(&'static str, usize)> {
    let mut best: Option<(&'static str, usize, usize)> = None;
    for (layer, (_, modules)) in LAYERS.iter().enumerate() {
        for m in *modules {
            let segs: Vec<&str> = m.split("::").collect();
            let holds = segs.len() <= path.len() && segs.iter().zip(path).all(|(a, b)| a == b);
            if holds && best.is_none_or(|(_, _, n)| segs.len() > n) {
                best = Some((m, layer, segs.len()));
            }
        }
    }
    best.map(|(m, layer, _)| (m, layer))
}

/// Where the brace that opens at `open` closes, skipping comments, strings
/// and character literals.
fn closing_brace(text: &str, open: usize) -> usize {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            b'"' => {
                // A raw string's hashes come before the quote.
                let hashes = b[..i].iter().rev().take_while(|&&c| c == b'#').count();
                let raw = b[..i - hashes].ends_with(b"r");
                i += 1;
                while i < b.len() {
                    if !raw && b[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if b[i] == b'"'
                        && b[i + 1..].iter().take_while(|&&c| c == b'#').count() >= hashes
                    {
                        i += hashes;
                        break;
                    }
                    i += 1;
                }
            }
            b'\'' => {
                // A character literal (`'{'`, `'\''`); otherwise a lifetime.
                if b.get(i + 1) == Some(&b'\\') {
                    i += 2;
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                } else if let Some(c) = text[i + 1..].chars().next()
                    && text[i + 1 + c.len_utf8()..].starts_with('\'')
                {
                    i += 1 + c.len_utf8();
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The inline modules of `code` (`mod name { ... }`): name and byte span.
fn inline_modules(code: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("mod ") {
        if at > 0 && code.as_bytes()[at - 1].is_ascii_alphanumeric() {
            continue;
        }
        let rest = &code[at + 4..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let after = rest[name.len()..].trim_start();
        if name.is_empty() || !after.starts_with('{') {
            continue;
        }
        let open = code.len() - after.len();
        out.push((name, open..closing_brace(code, open)));
    }
    out
}

/// Every path `code` names from inside the crate (`crate::a::b`,
/// `super::c`, `self::d`, groups included), made absolute for code in
/// module `module`. `$crate::` is a macro's own and not counted.
fn crate_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let inline = inline_modules(code);
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let word = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|w| rest.starts_with(w));
        let starts_word = at == 0
            || !(bytes[at - 1].is_ascii_alphanumeric()
                || bytes[at - 1] == b'_'
                || bytes[at - 1] == b'$'
                || bytes[at - 1] == b':');
        let Some(word) = word.filter(|_| starts_word) else {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        // The module this code is in: the file's, and the inline modules
        // around it.
        let mut here: Vec<String> = module.to_vec();
        for (name, span) in &inline {
            if span.contains(&at) {
                here.push(name.clone());
            }
        }
        let mut base = match word {
            "crate::" => Vec::new(),
            "self::" => here,
            _ => {
                here.pop();
                here
            }
        };
        let mut tail = &rest[word.len()..];
        while let Some(t) = tail.strip_prefix("super::") {
            base.pop();
            tail = t;
        }
        tree_paths(base, tail, &mut out);
        at += word.len();
    }
    out
}

/// The paths of one `use` tree (or a plain path) `text`, after `prefix`.
fn tree_paths(prefix: Vec<String>, text: &str, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    let mut rest = text.trim_start();
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0usize;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        tree_paths(path.clone(), &group[start..i], out);
                        return;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        tree_paths(path.clone(), &group[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        let ident: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !ident.is_empty() && ident != "self" {
            path.push(ident.clone());
        }
        rest = rest[ident.len()..].trim_start();
        match rest.strip_prefix("::") {
            Some(r) if !ident.is_empty() => rest = r.trim_start(),
            _ => break,
        }
    }
    out.push(path);
}

#[test]
fn crate_paths_reads_paths_groups_and_relative_ones() {
    let module: Vec<String> = ["gate", "fast"].iter().map(|s| s.to_string()).collect();
    let code = "use crate::gate::Gate;\nuse crate::{policy::Policy, window::{Level, clock}};\n\
                let x = crate::record::detect(l);\n$crate::finding\nuse super::detect::Detectors;\n\
                use super::super::sink;\nuse self::inner::X;\nmod inner { use super::Y; }\n\
                use crate::window::{self, budget};";
    let got: Vec<String> = crate_paths(code, &module)
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(
        got,
        [
            "gate::Gate",
            "policy::Policy",
            "window::Level",
            "window::clock",
            "record::detect",
            "gate::detect::Detectors",
            "sink",
            "gate::fast::inner::X",
            "gate::fast::Y",
            "window",
            "window::budget",
        ]
    );
}

/// What `code` in module `module` names against [`LAYERS`]: one line per
/// path that leaves its entry for one that is not lower.
fn layer_offences(module: &[String], code: &str) -> Vec<String> {
    let Some((from, from_layer)) = entry_of(module) else {
        return vec![format!("{}: in no entry of LAYERS", module.join("::"))];
    };
    let mut out = Vec::new();
    for path in crate_paths(code, module) {
        let shown = path.join("::");
        match entry_of(&path) {
            Some((to, _)) if to == from => {}
            Some((_, layer)) if layer < from_layer => {}
            Some((to, layer)) => out.push(format!(
                "{from} -> {to} (`crate::{shown}`): {}",
                if layer == from_layer {
                    "one layer, which holds modules that never name each other"
                } else {
                    "a back edge, up the layers"
                }
            )),
            None => out.push(format!(
                "{from} -> `crate::{shown}`: not a module of LAYERS (a re-export at the root?)"
            )),
        }
    }
    out
}

#[test]
fn a_planted_back_edge_or_a_name_through_the_root_fails() {
    let m = |s: &str| -> Vec<String> { s.split("::").map(str::to_string).collect() };
    // Down the layers, and inside one entry: fine.
    assert!(
        layer_offences(
            &m("gate"),
            "use crate::record::tape::Tape; use super::gate::fast::sep; use self::otlp::X;"
        )
        .is_empty()
    );
    assert!(layer_offences(&m("gate::fast"), "use super::detect::Detectors;").is_empty());
    // Up the layers: the gate from the record layer, the daemon from a
    // sink exporter, the gate's verdict from the shared scanner.
    for (module, code) in [
        ("record::tape", "use crate::gate::Gate;"),
        ("sink::otlp", "let p = crate::daemon::grpc::TRACES_PATH;"),
        ("gate::fast", "use super::Gate;"),
        ("evidence", "fn f(g: &crate::gate::Gate) {}"),
        ("sink", "use self::writer::Queue;"),
        (
            "policy::compile",
            "crate::gate::otlp::content::is_content_attribute(p, k)",
        ),
        ("io_text", "use crate::{finding::Rule};"),
    ] {
        let found = layer_offences(&m(module), code);
        assert_eq!(found.len(), 1, "{module}: {code}: {found:?}");
        assert!(found[0].contains("back edge"), "{found:?}");
    }
    // Peers of one layer name nothing of each other.
    assert!(
        layer_offences(&m("source::lines"), "use crate::redact::Redactor;")[0]
            .contains("one layer")
    );
    // An item through the root's re-exports hides its module.
    assert!(layer_offences(&m("record"), "use crate::Gate;")[0].contains("not a module"));
}

/// Every file of each crate's `src` (but the roots, `lib.rs` and
/// `main.rs`) names only modules below its own in [`LAYERS`], outside
/// `#[cfg(test)]` items, and lives in the crate its entry is tagged with;
/// every entry is a module, listed once; and the crates come in their
/// order. (Cargo holds the edges between crates; this holds the ones
/// inside each, and that the daemon's and the command's `crate::gate`
/// re-exports name the library's modules, not a back edge.)
#[test]
fn module_edges_follow_the_layers() {
    let mut offences = Vec::new();
    let mut homes = std::collections::BTreeMap::new();
    for (krate, root) in crate_sources() {
        let mut files = Vec::new();
        rust_files(&root, &mut files);
        let test_only = test_only_files(&root);
        let shown = root.strip_prefix(workspace()).unwrap().to_path_buf();
        for f in files.iter().filter(|f| !test_only.contains(f)) {
            let rel = f.strip_prefix(&root).unwrap();
            let module = module_of(rel);
            if module.is_empty() || module == ["lib"] || module == ["main"] {
                continue;
            }
            let code = without_test_items(&std::fs::read_to_string(f).unwrap());
            for o in layer_offences(&module, &code) {
                offences.push(format!("{}/{}: {o}", shown.display(), rel.display()));
            }
            if let Some((m, layer)) = entry_of(&module)
                && LAYERS[layer].0 != krate
            {
                offences.push(format!(
                    "{}/{}: `{m}` is tagged `{}` in LAYERS but lives in the {krate} crate",
                    shown.display(),
                    rel.display(),
                    LAYERS[layer].0
                ));
            }
        }
        homes.insert(krate, root);
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut last_crate = 0;
    for (krate, modules) in LAYERS {
        let k = CRATES.iter().position(|c| c == krate).unwrap();
        if k < last_crate {
            offences.push(format!(
                "LAYERS: a `{krate}` layer above a `{}` one",
                CRATES[last_crate]
            ));
        }
        last_crate = k;
        for m in *modules {
            if !seen.insert(*m) {
                offences.push(format!("LAYERS names `{m}` twice"));
            }
            let dir = homes[krate].join(m.replace("::", "/"));
            if !dir.is_dir() && !dir.with_extension("rs").is_file() {
                offences.push(format!(
                    "LAYERS names `{m}`, which is not a module of the {krate} crate"
                ));
            }
        }
    }
    assert!(offences.is_empty(), "module edges: {offences:#?}");
}

/// The library others embed builds without the network: its normal
/// dependency tree (`cargo tree -p tracegate -e normal`) holds no async
/// runtime, HTTP or gRPC stack, file watcher, Redis client, TLS library or
/// argument parser.
#[test]
fn the_library_depends_on_no_network_stack() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .current_dir(workspace())
        .args([
            "tree",
            "-p",
            "tracegate",
            "-e",
            "normal",
            "--prefix",
            "none",
            "--offline",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8(out.stdout).unwrap();
    let names: std::collections::BTreeSet<&str> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(
        names.contains("tracegate") && names.contains("serde_json"),
        "{tree}"
    );
    let denied = [
        "tokio",
        "hyper",
        "hyper-util",
        "tonic",
        "axum",
        "notify",
        "redis",
        "rustls",
        "tokio-rustls",
        "hyper-rustls",
        "clap",
        "indicatif",
        "tracing-subscriber",
    ];
    let found: Vec<&&str> = denied.iter().filter(|d| names.contains(**d)).collect();
    assert!(found.is_empty(), "the library pulls in {found:?}");
}

/// Library code marks where it enforces a privacy guarantee.
#[test]
fn security_comments_mark_the_guarantees() {
    let root = library_src();
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
/// `crates/tracegate/src/policy` themselves: a literal quoted in backticks there is our own
/// text (values arrive through `{}`), so it must be a key name or in
/// `POLICY_SYNTAX`.
#[test]
fn policy_syntax_in_messages_keeps_its_quotes() {
    let mut files = Vec::new();
    rust_files(&library_src().join("policy"), &mut files);
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
        "policy syntax the public form of an error hides (add it to POLICY_SYNTAX in crates/tracegate/src/policy/error.rs): {hidden:?}"
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

/// Issue 35 item 8: no message counts with a fixed plural (`1 records`,
/// `1 violations`, `(and 1 more errors)`): a count of records, entries,
/// errors, violations, findings, leases or intervals goes through
/// `io_text::counted`. `{} bytes` and the `Debug` forms are left alone.
#[test]
fn no_message_counts_with_a_fixed_plural() {
    let mut files = Vec::new();
    for (_, src) in crate_sources() {
        let mut here = Vec::new();
        rust_files(&src, &mut here);
        let tests = test_only_files(&src);
        files.extend(here.into_iter().filter(|f| !tests.contains(f)));
    }
    let fixed = regex::Regex::new(
        r"\{[A-Za-z_.0-9]*\} (more )?(records|entries|errors|violations|findings|evidence findings|leases|intervals|intact entries|complete entries)\b",
    )
    .unwrap();
    // A hand-written `Debug` (`"Entry({:?}, {} records, {} bytes)"`) is
    // for developers, not a message.
    let debug_form = regex::Regex::new(r#"^\s*"[A-Z][A-Za-z:]*\("#).unwrap();
    let mut offences = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        // Test code may say what it likes.
        let code = text.split("#[cfg(test)]\nmod ").next().unwrap_or("");
        for (i, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//")
                || line.contains("assert")
                || debug_form.is_match(line)
            {
                continue;
            }
            if fixed.is_match(line) {
                offences.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(offences.is_empty(), "{offences:#?}");
}

/// Issue 35 item 8: the finding format docs/reference.md shows is the one
/// `check` prints: the text form's parts, and the JSON objects' keys in
/// their order (it once showed a finding without `type` and no summary).
#[test]
fn the_reference_shows_the_finding_format_check_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/reference.md")).unwrap();
    let section = &text[text.find("### Findings").unwrap()..];
    assert!(
        section.contains("`FILE:LINE: rule: field: message`"),
        "docs/reference.md, Findings"
    );
    let block = section
        .split("```json\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("traces.jsonl");
    std::fs::write(
        &input,
        "{\"request_id\":\"chatcmpl-1\",\"prompt_text\":\"x\"}\n",
    )
    .unwrap();
    let policy = root.join("policies/default.toml");
    let run = |format: &str| {
        super::cli::tracegate(
            &[
                "check",
                "--policy",
                policy.to_str().unwrap(),
                "--format",
                format,
                input.to_str().unwrap(),
            ],
            b"",
        )
    };
    let json = run("json");
    let keys = |line: &str| -> Vec<String> {
        // Keys in their written order: every `"key":` at the top level of
        // a flat object.
        line.split(",\"")
            .map(|part| {
                part.trim_start_matches('{')
                    .trim_start_matches('"')
                    .split('"')
                    .next()
                    .unwrap()
                    .to_owned()
            })
            .collect()
    };
    let shown: Vec<Vec<String>> = block.lines().map(keys).collect();
    let printed: Vec<Vec<String>> = json.stdout.lines().map(keys).collect();
    assert_eq!(
        shown, printed,
        "docs/reference.md:\n{block}\ncheck:\n{}",
        json.stdout
    );
    let text_form = run("text");
    let line = text_form.stdout.lines().next().unwrap();
    assert!(
        line.ends_with(
            "traces.jsonl:1: content_field: prompt_text: content field is not allowed at standard level"
        ),
        "{line}"
    );
}
