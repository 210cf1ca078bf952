//! Every key and every value's type checked at once, against the key
//! table that the `Raw*` types declare ([`super::keys`]).
//!
//! serde stops at the first unknown key or mistyped value; this walk
//! finds all of them in one pass, with a "did you mean" hint, and removes
//! each offending entry from the tree so that the later stages (merge,
//! deserialize, validate) still run and report their own errors. The
//! table is the `Raw*` types' own, so the two cannot drift apart.

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::keys::{REPLACE_DEFAULTS, Shape, TableShape, dotted, table_title};
use super::raw::RawPolicy;

/// Values that may be a customer list or a credential: an error on their
/// line is shown without the line. An unknown key in a table that holds
/// one of them is treated alike (it may be one of them misspelt).
// SECURITY: a keyword list is a customer list, a redaction pattern may
// spell one out (`Northwind|Contoso`), and a budget store URL may hold a
// password (refused, but the refusal must not print it).
pub const SECRET_KEYS: &[&str] = &[
    "redact.keywords.words",
    "redact.pattern.regex",
    "fleet.budget_store",
];

/// Whether the table at `path` holds a [`SECRET_KEYS`] key.
fn holds_secrets(path: &str) -> bool {
    SECRET_KEYS
        .iter()
        .any(|k| k.rsplit_once('.').is_some_and(|(table, _)| table == path))
}

/// The root of the key table.
pub fn root() -> TableShape {
    match <RawPolicy as super::keys::Describe>::shape() {
        Shape::Table(t) => t,
        // `RawPolicy` is declared by `raw_table!`, which always gives a table.
        _ => TableShape {
            type_name: "RawPolicy",
            keys: RawPolicy::keys,
        },
    }
}

/// A problem with one key or value.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Byte span of the key (unknown keys) or value (wrong types).
    pub span: Range<usize>,
    /// `unknown key `x` in [sink]`, `...must be an integer, not a string`.
    pub message: String,
    /// `did you mean `y`?` or what the value should look like.
    pub hint: Option<String>,
    /// The dotted key.
    pub key: String,
}

/// What the walk learnt about a file besides its problems.
#[derive(Debug, Default, Clone)]
pub struct Index {
    /// Each key's place (key through value) and dotted name.
    pub keys: Vec<(Range<usize>, String)>,
    /// Values that may hold a customer list.
    pub secrets: Vec<Range<usize>>,
}

impl Index {
    /// The innermost key whose place holds `offset`.
    pub fn key_at(&self, offset: usize) -> Option<&str> {
        self.keys
            .iter()
            .filter(|(r, _)| r.start <= offset && offset < r.end.max(r.start + 1))
            .min_by_key(|(r, _)| r.end.saturating_sub(r.start))
            .map(|(_, k)| k.as_str())
    }
}

/// Check every key and value of one file's tree; remove what is wrong.
pub fn check(root: &mut DeTable<'_>, problems: &mut Vec<Problem>, index: &mut Index) {
    let shape = self::root();
    walk_table(root, shape, "", false, problems, index);
    problems.sort_by_key(|p| p.span.start);
}

fn walk_table(
    table: &mut DeTable<'_>,
    shape: TableShape,
    path: &str,
    array: bool,
    problems: &mut Vec<Problem>,
    index: &mut Index,
) {
    let keys = (shape.keys)();
    let mut remove = Vec::new();
    for (key, value) in table.iter_mut() {
        let name: &str = key.get_ref();
        let sub = dotted(path, &crate::finding::escape_key(name));
        index
            .keys
            .push((key.span().start..value.span().end, sub.clone()));
        let Some(k) = super::keys::find(keys, name) else {
            // SECURITY: `budget_stor = "redis://u:PASSWORD@h"` is a secret
            // however its key is spelt.
            if holds_secrets(path) {
                index.secrets.push(key.span().start..value.span().end);
            }
            let known: Vec<&str> = keys.iter().map(|k| k.name).collect();
            problems.push(Problem {
                span: key.span(),
                message: format!(
                    "unknown key `{}` in {}",
                    crate::finding::escape_key(name),
                    table_title(path, array)
                ),
                hint: suggestion(name, &known)
                    .or_else(|| Some(format!("known keys: {}", known.join(", ")))),
                key: sub,
            });
            remove.push(name.to_string());
            continue;
        };
        if !walk_value(value, (k.shape)(), &sub, problems, index) {
            remove.push(name.to_string());
        }
    }
    for name in remove {
        table.remove(name.as_str());
    }
}

/// Check one value against its shape; `false` when it must be removed.
fn walk_value(
    value: &mut Spanned<DeValue<'_>>,
    shape: Shape,
    path: &str,
    problems: &mut Vec<Problem>,
    index: &mut Index,
) -> bool {
    if SECRET_KEYS.contains(&path) {
        index.secrets.push(value.span());
    }
    let span = value.span();
    let ok = match (shape, value.get_mut()) {
        (Shape::Str, DeValue::String(_))
        | (Shape::Int, DeValue::Integer(_))
        | (Shape::Float, DeValue::Integer(_) | DeValue::Float(_))
        | (Shape::Bool, DeValue::Boolean(_))
        | (Shape::Time, DeValue::String(_) | DeValue::Datetime(_))
        | (Shape::BoolOrStrings, DeValue::Boolean(_)) => true,
        (Shape::BoolOrStrings, DeValue::Array(a)) => a.iter().all(|v| v.get_ref().is_str()),
        (Shape::IntOrInts, DeValue::Integer(_)) => true,
        (Shape::IntOrInts, DeValue::Table(t)) => t
            .iter()
            .all(|(_, v)| matches!(v.get_ref(), DeValue::Integer(_))),
        (Shape::List(inner), DeValue::Array(items)) => {
            // Each bad element is reported and left out; the rest stays,
            // so that later stages do not report an emptied list.
            let inner = inner();
            let mut kept = toml::de::DeArray::new();
            for item in items.iter_mut() {
                if walk_value(item, inner, path, problems, index) {
                    kept.push(std::mem::replace(
                        item,
                        Spanned::new(0..0, DeValue::Boolean(false)),
                    ));
                }
            }
            *items = kept;
            return true;
        }
        (Shape::Table(t), DeValue::Table(table)) => {
            walk_table(table, t, path, false, problems, index);
            true
        }
        (Shape::Tables(t), DeValue::Array(items))
            if items.iter().all(|i| i.get_ref().is_table()) =>
        {
            for item in items.iter_mut() {
                index.keys.push((item.span(), path.to_string()));
                if let DeValue::Table(table) = item.get_mut() {
                    walk_table(table, t, path, true, problems, index);
                }
            }
            true
        }
        (Shape::Rule(rule), DeValue::Table(table)) => {
            if let Shape::Table(t) = rule() {
                walk_table(table, t, path, false, problems, index);
            }
            true
        }
        (Shape::Allowlist(_) | Shape::Map(_) | Shape::Named(_), DeValue::Table(tables)) => {
            walk_names(tables, shape, path, problems, index);
            true
        }
        _ => false,
    };
    if !ok {
        let found = value.get_ref().type_str();
        problems.push(Problem {
            span,
            message: format!(
                "`{}` must be {}, not {}",
                super::error::shown(path),
                expected(shape),
                article(found)
            ),
            hint: example(shape).map(str::to_string),
            key: path.to_string(),
        });
    }
    ok
}

/// Tables under names: an allowlist's or a member map's field rules, or
/// `[redact.context.<detector>]`'s tables (each name's value must be a
/// table of the inner shape; a name's own validity is checked where it is
/// used).
fn walk_names(
    tables: &mut DeTable<'_>,
    shape: Shape,
    path: &str,
    problems: &mut Vec<Problem>,
    index: &mut Index,
) {
    let (Shape::Allowlist(inner) | Shape::Map(inner) | Shape::Named(inner)) = shape else {
        return;
    };
    let Shape::Table(t) = inner() else { return };
    let mut remove = Vec::new();
    for (name, value) in tables.iter_mut() {
        let n: &str = name.get_ref();
        let sub = dotted(path, &crate::finding::escape_key(n));
        index
            .keys
            .push((name.span().start..value.span().end, sub.clone()));
        if matches!(shape, Shape::Allowlist(_)) && n == REPLACE_DEFAULTS {
            if !value.get_ref().is_bool() {
                problems.push(Problem {
                    span: value.span(),
                    message: format!(
                        "`{REPLACE_DEFAULTS}` in [{path}] must be true or false, not {}",
                        article(value.get_ref().type_str())
                    ),
                    hint: Some(format!(
                        "`{REPLACE_DEFAULTS} = true` makes this table replace the built-in rules instead of extending them; it cannot name a field"
                    )),
                    key: sub,
                });
                remove.push(n.to_string());
            }
            continue;
        }
        let span = value.span();
        let found = match value.get_mut() {
            DeValue::Table(table) => {
                walk_table(table, t, &sub, false, problems, index);
                continue;
            }
            other => article(other.type_str()),
        };
        let (message, hint) = match shape {
            Shape::Named(_) => (
                format!(
                    "`{}` must be a table, not {found}",
                    super::error::shown(&sub)
                ),
                format!("write it as its own table: `[{sub}]`"),
            ),
            _ => (
                format!(
                    "the rule for `{}` must be a table, not {found}",
                    crate::finding::escape_key(n)
                ),
                "write it like `{ type = \"string\", max_len = 64 }`".to_string(),
            ),
        };
        problems.push(Problem {
            span,
            message,
            hint: Some(hint),
            key: sub,
        });
        remove.push(n.to_string());
    }
    for n in remove {
        tables.remove(n.as_str());
    }
}

fn expected(shape: Shape) -> &'static str {
    match shape {
        Shape::Str => "a string",
        Shape::Int => "an integer",
        Shape::Float => "a number",
        Shape::Bool => "true or false",
        Shape::Time => "an RFC 3339 time",
        Shape::BoolOrStrings => "true, false or a list of detector names",
        Shape::IntOrInts => "an integer, or a table of integers by record format",
        Shape::List(inner) => match inner() {
            Shape::Str => "a list of strings",
            _ => "a list",
        },
        Shape::Table(_) => "a table",
        Shape::Tables(_) => "an array of tables",
        Shape::Allowlist(_) | Shape::Map(_) => "a table of field rules",
        Shape::Rule(_) => "a field rule",
        Shape::Named(_) => "a table of tables, one per name",
    }
}

fn example(shape: Shape) -> Option<&'static str> {
    match shape {
        Shape::Str => Some("quote it: `key = \"value\"`"),
        Shape::Int => Some("write a whole number without quotes, like `1024`"),
        Shape::Float => Some("write a number without quotes, like `0.5`"),
        Shape::Bool => Some("write `true` or `false` without quotes"),
        Shape::Time => Some("write it like `2026-12-01T10:00:00Z`"),
        Shape::BoolOrStrings => Some("write `false` or a list like `[\"email\"]`"),
        Shape::IntOrInts => Some("write `20000`, or `{ otlp_span = 20000, cf = 1024 }`"),
        Shape::List(_) => Some("write a list like `[\"a\", \"b\"]`"),
        Shape::Tables(_) => Some("write each entry as its own `[[...]]` table"),
        Shape::Rule(_) => Some("write it like `{ type = \"string\", pattern = \"[a-z]{1,16}\" }`"),
        _ => None,
    }
}

fn article(type_str: &str) -> String {
    match type_str {
        "integer" | "array" => format!("an {type_str}"),
        "float" => "a float".to_string(),
        other => format!("a {other}"),
    }
}

/// Whether `s` is a key the policy defines, or a dotted path of such keys
/// (`limits.max_line_bytes`): text that is policy structure, never a value.
pub fn is_key_name(s: &str) -> bool {
    let tables = super::keys::all_tables(root());
    !s.is_empty()
        && s.split('.').all(|part| {
            part == REPLACE_DEFAULTS
                || tables
                    .iter()
                    .any(|(_, _, t)| (t.keys)().iter().any(|k| k.name == part))
        })
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

/// The hint for a mistyped `word`: `did you mean `k`?` when one of
/// `candidates` is close enough ([`did_you_mean`]).
pub fn suggestion(word: &str, candidates: &[&str]) -> Option<String> {
    did_you_mean(word, candidates).map(|k| format!("did you mean `{k}`?"))
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

    fn problems(src: &str) -> Vec<Problem> {
        let mut root = DeTable::parse(src).unwrap().into_inner();
        let mut out = Vec::new();
        check(&mut root, &mut out, &mut Index::default());
        out
    }

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
        let keys = problems(src);
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
        assert_eq!(keys[2].key, "standard.fields.x.patern");
    }

    #[test]
    fn every_mistyped_value_is_reported_and_removed() {
        let src = "[server]\nmax_spans = \"many\"\nlisten = 4318\n[limits]\nmax_line_bytes = true\n[[sink]]\nname = 3\nfull_allowed = \"yes\"\n[standard.fields]\nreplace_defaults = \"yes\"\na = 5\n";
        let mut root = DeTable::parse(src).unwrap().into_inner();
        let mut out = Vec::new();
        check(&mut root, &mut out, &mut Index::default());
        let keys: Vec<_> = out.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(
            keys,
            vec![
                "server.max_spans",
                "server.listen",
                "limits.max_line_bytes",
                "sink.name",
                "sink.full_allowed",
                "standard.fields.replace_defaults",
                "standard.fields.a",
            ]
        );
        assert!(out[0].message.contains("must be an integer, not a string"));
        // What is left deserializes.
        let raw = <RawPolicy as serde::Deserialize>::deserialize(toml::de::Deserializer::from(
            Spanned::new(0..0, root),
        ));
        assert!(raw.is_ok(), "{raw:?}");
    }

    #[test]
    fn the_key_table_is_the_raw_types() {
        let keys: Vec<&str> = RawPolicy::keys().iter().map(|k| k.name).collect();
        assert!(keys.contains(&"server") && keys.contains(&"sink"));
        assert!(is_key_name("limits.max_line_bytes"));
        assert!(is_key_name("type"));
        assert!(!is_key_name("Northwind"));
    }
}
