//! The set of keys each policy table accepts, used to report *every* unknown
//! key at once with a "did you mean" hint (serde stops at the first one).
//!
//! **Invariant:** this table and the `Raw*` structs accept exactly the same
//! keys; `policies/reference.toml` uses every key and a test checks that both
//! accept it, so the two cannot drift apart silently.

use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// A kind of table in the policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Root,
    Audit,
    Limits,
    Full,
    Standard,
    /// A map from field names to field rules.
    FieldMap,
    Field,
    Otlp,
    Evidence,
    Sink,
    Window,
    Redact,
    RedactPattern,
    RedactKeywords,
    /// A map from built-in detector names to their context.
    RedactContextMap,
    RedactContext,
    Server,
    Source,
    Fleet,
    /// A value that is not a table of ours (strings, `redact = [..]`).
    Leaf,
}

fn children(node: Node) -> &'static [(&'static str, Node)] {
    use Node::*;
    match node {
        Root => &[
            ("version", Leaf),
            ("audit", Audit),
            ("limits", Limits),
            ("full", Full),
            ("standard", Standard),
            ("sink", Sink),
            ("window", Window),
            ("redact", Redact),
            ("server", Server),
            ("source", Source),
            ("fleet", Fleet),
        ],
        Audit => &[
            ("path", Leaf),
            ("key_file", Leaf),
            ("lock_timeout", Leaf),
            ("anchor", Leaf),
        ],
        Limits => &[("max_line_bytes", Leaf)],
        Full => &[
            ("content_fields", Leaf),
            ("content_attributes", Leaf),
            ("max_window", Leaf),
        ],
        Standard => &[
            ("on_violation", Leaf),
            ("detectors", Leaf),
            ("fields", FieldMap),
            ("otlp", Otlp),
            ("evidence", Evidence),
        ],
        Field => &[
            ("type", Leaf),
            ("nullable", Leaf),
            ("pattern", Leaf),
            ("unicode", Leaf),
            ("free_text", Leaf),
            ("one_of", Leaf),
            ("min", Leaf),
            ("max", Leaf),
            ("max_len", Leaf),
            ("required", Leaf),
            ("items", Field),
            ("max_items", Leaf),
            ("fields", FieldMap),
        ],
        Otlp => &[
            ("span_names", Leaf),
            ("span_attributes", FieldMap),
            ("resource_attributes", FieldMap),
            ("scope_attributes", FieldMap),
            ("event_attributes", FieldMap),
            ("link_attributes", FieldMap),
            ("log_attributes", FieldMap),
            ("schema_url", Field),
            ("scope_name", Field),
            ("scope_version", Field),
            ("event_name", Field),
            ("span_name", Field),
            ("trace_state", FieldMap),
            ("max_resources", Leaf),
            ("max_scopes", Leaf),
            ("max_spans", Leaf),
            ("max_events", Leaf),
            ("max_links", Leaf),
            ("max_log_records", Leaf),
            ("max_attributes", Leaf),
        ],
        Evidence => &[("fields", FieldMap)],
        Sink => &[
            ("name", Leaf),
            ("full_allowed", Leaf),
            ("output", Leaf),
            ("redact", Leaf),
            ("pseudonymize", Leaf),
            ("tls_ca_file", Leaf),
            ("tls_cert_file", Leaf),
            ("tls_key_file", Leaf),
            ("bearer_token_file", Leaf),
        ],
        Window => &[
            ("id", Leaf),
            ("sink", Leaf),
            ("start", Leaf),
            ("end", Leaf),
            ("reason", Leaf),
            ("requested_by", Leaf),
            ("max_records", Leaf),
            ("max_bytes", Leaf),
            ("unbounded", Leaf),
        ],
        Redact => &[
            ("builtin", Leaf),
            ("key_file", Leaf),
            ("allow_unredacted_sinks", Leaf),
            ("pseudonym_prefixes", Leaf),
            ("pattern", RedactPattern),
            ("keywords", RedactKeywords),
            ("context", RedactContextMap),
        ],
        RedactContext => &[("words", Leaf), ("not_words", Leaf), ("window", Leaf)],
        RedactPattern => &[("name", Leaf), ("regex", Leaf), ("action", Leaf)],
        RedactKeywords => &[
            ("name", Leaf),
            ("words", Leaf),
            ("file", Leaf),
            ("case_insensitive", Leaf),
            ("whole_word", Leaf),
            ("action", Leaf),
        ],
        Server => &[
            ("listen", Leaf),
            ("max_body_bytes", Leaf),
            ("queue_records", Leaf),
            ("queue_bytes", Leaf),
            ("flush_interval", Leaf),
            ("max_connections", Leaf),
            ("max_spans", Leaf),
            ("max_log_records", Leaf),
            ("max_events", Leaf),
            ("max_links", Leaf),
            ("max_attributes", Leaf),
            ("max_nesting", Leaf),
            ("decode_memory_bytes", Leaf),
            ("header_read_timeout", Leaf),
            ("body_read_timeout", Leaf),
            ("idle_timeout", Leaf),
            ("grpc_listen", Leaf),
            ("tls_cert_file", Leaf),
            ("tls_key_file", Leaf),
            ("tls_client_ca_file", Leaf),
            ("bearer_token_file", Leaf),
        ],
        Source => &[("kind", Leaf), ("path", Leaf)],
        Fleet => &[
            ("budget_store", Leaf),
            ("password_file", Leaf),
            ("replicas", Leaf),
            ("replica_id", Leaf),
            ("store_timeout", Leaf),
        ],
        FieldMap | RedactContextMap | Leaf => &[],
    }
}

/// Whether `s` is a key this schema defines, or a dotted path of such keys
/// (`limits.max_line_bytes`): text that is policy structure, never a value.
pub fn is_key_name(s: &str) -> bool {
    use Node::*;
    const ALL: [Node; 16] = [
        Root,
        Audit,
        Limits,
        Full,
        Standard,
        Field,
        Otlp,
        Evidence,
        Sink,
        Window,
        Redact,
        RedactPattern,
        RedactKeywords,
        RedactContext,
        Server,
        Source,
    ];
    !s.is_empty()
        && s.split('.').all(|part| {
            ALL.iter()
                .any(|n| children(*n).iter().any(|(k, _)| *k == part))
        })
}

fn table_name(node: Node, path: &str) -> String {
    match node {
        Node::Sink | Node::Window | Node::RedactPattern | Node::RedactKeywords | Node::Source => {
            format!("[[{path}]]")
        }
        Node::Root => "the top level".to_string(),
        _ => format!("[{path}]"),
    }
}

/// An unknown key: where it is and what to say.
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownKey {
    /// Byte span of the key in its file.
    pub span: std::ops::Range<usize>,
    /// `unknown key `x` in [sink]`.
    pub message: String,
    /// `did you mean `y`?`, when a known key is close.
    pub hint: Option<String>,
}

/// Every key of `root` that no table accepts.
pub fn unknown_keys(root: &Spanned<DeTable<'_>>) -> Vec<UnknownKey> {
    let mut out = Vec::new();
    walk_table(root.get_ref(), Node::Root, "", &mut out);
    out.sort_by_key(|u| u.span.start);
    out
}

fn walk_table(table: &DeTable<'_>, node: Node, path: &str, out: &mut Vec<UnknownKey>) {
    for (key, value) in table {
        let name: &str = key.get_ref();
        let sub = if path.is_empty() {
            name.to_string()
        } else {
            format!("{path}.{name}")
        };
        let child = if node == Node::FieldMap {
            Node::Field
        } else if node == Node::RedactContextMap {
            Node::RedactContext
        } else {
            match children(node).iter().find(|(k, _)| *k == name) {
                Some((_, c)) => *c,
                None => {
                    let known: Vec<&str> = children(node).iter().map(|(k, _)| *k).collect();
                    out.push(UnknownKey {
                        span: key.span(),
                        message: format!(
                            "unknown key `{}` in {}",
                            crate::finding::escape_key(name),
                            table_name(node, path)
                        ),
                        hint: did_you_mean(name, &known)
                            .map(|k| format!("did you mean `{k}`?"))
                            .or_else(|| Some(format!("known keys: {}", known.join(", ")))),
                    });
                    continue;
                }
            }
        };
        walk_value(value, child, &sub, out);
    }
}

fn walk_value(value: &Spanned<DeValue<'_>>, node: Node, path: &str, out: &mut Vec<UnknownKey>) {
    if node == Node::Leaf {
        return;
    }
    match value.get_ref() {
        DeValue::Table(t) => walk_table(t, node, path, out),
        DeValue::Array(items) => {
            for item in items.iter() {
                if let DeValue::Table(t) = item.get_ref() {
                    walk_table(t, node, path, out);
                }
            }
        }
        _ => {}
    }
}

/// The closest of `candidates` to `word`, if it is close enough to be a typo.
pub fn did_you_mean<'c>(word: &str, candidates: &[&'c str]) -> Option<&'c str> {
    let limit = (word.chars().count() / 3).clamp(1, 3);
    candidates
        .iter()
        .map(|c| (edit_distance(word, c), *c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Optimal-string-alignment distance (Levenshtein plus adjacent swaps).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_get_hints() {
        assert_eq!(
            did_you_mean("full_alowed", &["name", "full_allowed", "output"]),
            Some("full_allowed")
        );
        assert_eq!(
            did_you_mean("reqested_by", &["requested_by"]),
            Some("requested_by")
        );
        assert_eq!(did_you_mean("zzz", &["name", "output"]), None);
        assert_eq!(edit_distance("ab", "ba"), 1);
    }

    #[test]
    fn every_unknown_key_is_reported_with_its_place() {
        let src = "versio = 1\n[[sink]]\nname = \"a\"\nfull_alowed = true\n[standard.fields]\nx = { type = \"string\", patern = \"a\" }\n";
        let root = DeTable::parse(src).unwrap();
        let keys = unknown_keys(&root);
        let msgs: Vec<_> = keys.iter().map(|k| k.message.as_str()).collect();
        assert_eq!(
            msgs,
            vec![
                "unknown key `versio` in the top level",
                "unknown key `full_alowed` in [[sink]]",
                "unknown key `patern` in [standard.fields.x]",
            ]
        );
        assert_eq!(
            keys[1].hint.as_deref(),
            Some("did you mean `full_allowed`?")
        );
        assert_eq!(&src[keys[1].span.clone()], "full_alowed");
    }
}
