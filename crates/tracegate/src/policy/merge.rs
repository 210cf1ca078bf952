//! Policy files merged generically, at the TOML table level.
//!
//! Each file is parsed into a spanned TOML tree whose spans are shifted
//! into one address space (file `i` starts where file `i - 1` ended, plus
//! one), so that every span of the merged tree still names its file and
//! its place in it. The trees are then merged by the shape of the key
//! table ([`super::keys`]), never key by key by hand:
//!
//! - tables merge key by key; a value (a string, a number, a list) set in
//!   two files is an error naming both;
//! - arrays of tables (`[[sink]]`, `[[window]]`, `[[redact.pattern]]`, ...)
//!   add up, in file order;
//! - allowlists (`[standard.fields]`, `[standard.otlp.*_attributes]`,
//!   `[standard.evidence.fields]`) merge rule by rule; a rule is replaced
//!   whole, never merged with another; a name ruled in two files is an
//!   error.
//!
//! - named tables (`[redact.context.<detector>]`) merge name by name; a
//!   name set in two files is an error.
//!
//! The built-in defaults are then laid under the user's tree: whatever the
//! user left out takes the default, and an allowlist *extends* the
//! default rules unless it says `replace_defaults = true` (then only its
//! own rules apply). The merged tree is deserialized once, into
//! [`super::raw::RawPolicy`].

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::keys::{REPLACE_DEFAULTS, Shape, TableShape, dotted};

/// The start of each file in the merged address space.
#[derive(Debug, Clone)]
pub struct Bases(Vec<usize>);

impl Bases {
    /// Bases for files of these lengths, in order.
    pub fn new(lengths: impl IntoIterator<Item = usize>) -> Bases {
        let mut next = 0;
        Bases(
            lengths
                .into_iter()
                .map(|len| {
                    let b = next;
                    next += len + 1;
                    b
                })
                .collect(),
        )
    }

    /// Where file `i` starts.
    pub fn base(&self, i: usize) -> usize {
        self.0.get(i).copied().unwrap_or(0)
    }

    /// The file a merged offset is in, and the offset within it.
    pub fn locate(&self, offset: usize) -> (usize, usize) {
        let i = self.0.partition_point(|b| *b <= offset).saturating_sub(1);
        (i, offset - self.base(i))
    }
}

/// The spans of `tree` moved by `by`.
pub fn shift<'a>(tree: Spanned<DeTable<'a>>, by: usize) -> Spanned<DeTable<'a>> {
    let span = moved(tree.span(), by);
    Spanned::new(span, shift_table(tree.into_inner(), by))
}

fn moved(r: Range<usize>, by: usize) -> Range<usize> {
    r.start + by..r.end + by
}

fn shift_table<'a>(t: DeTable<'a>, by: usize) -> DeTable<'a> {
    let mut out = DeTable::new();
    for (k, v) in t {
        let k = Spanned::new(moved(k.span(), by), k.into_inner());
        out.insert(k, shift_value(v, by));
    }
    out
}

fn shift_value<'a>(v: Spanned<DeValue<'a>>, by: usize) -> Spanned<DeValue<'a>> {
    let span = moved(v.span(), by);
    let value = match v.into_inner() {
        DeValue::Table(t) => DeValue::Table(shift_table(t, by)),
        DeValue::Array(mut a) => {
            // In place: a new array could not keep its "array of tables" mark.
            for item in a.iter_mut() {
                let old = std::mem::replace(item, Spanned::new(0..0, DeValue::Boolean(false)));
                *item = shift_value(old, by);
            }
            DeValue::Array(a)
        }
        other => other,
    };
    Spanned::new(span, value)
}

/// A value set in two files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clash {
    /// Dotted key.
    pub key: String,
    /// The later definition.
    pub span: Range<usize>,
    /// The earlier one.
    pub first: Range<usize>,
}

fn shape_of(t: TableShape, key: &str) -> Option<Shape> {
    super::keys::find((t.keys)(), key).map(|k| (k.shape)())
}

/// Merge a user file's tree into `acc` (the files before it).
pub fn merge_user<'a>(
    acc: &mut DeTable<'a>,
    next: DeTable<'a>,
    shape: TableShape,
    path: &str,
    clashes: &mut Vec<Clash>,
) {
    for (k, v) in next {
        let name = k.get_ref().to_string();
        let sub = dotted(path, &name);
        let here = shape_of(shape, &name);
        let first = match acc.get_key_value(name.as_str()) {
            Some((old, _)) => old.span(),
            None => {
                acc.insert(k, v);
                continue;
            }
        };
        let Some(slot) = acc.get_mut(name.as_str()) else {
            continue;
        };
        match (here, slot.get_mut(), v.into_inner()) {
            (Some(Shape::Table(t)), DeValue::Table(a), DeValue::Table(b)) => {
                merge_user(a, b, t, &sub, clashes)
            }
            (Some(Shape::Tables(_)), DeValue::Array(a), DeValue::Array(b)) => {
                for item in b.iter() {
                    a.push(item.clone());
                }
            }
            (Some(Shape::Allowlist(_) | Shape::Named(_)), DeValue::Table(a), DeValue::Table(b)) => {
                // Rules (and named tables) are atomic: a name set twice is a clash.
                for (name, rule) in b {
                    let n: &str = name.get_ref();
                    match a.get_key_value(n) {
                        Some((old, _)) => clashes.push(Clash {
                            key: dotted(&sub, name.get_ref()),
                            span: name.span(),
                            first: old.span(),
                        }),
                        None => {
                            a.insert(name, rule);
                        }
                    }
                }
            }
            _ => clashes.push(Clash {
                key: sub,
                span: k.span(),
                first,
            }),
        }
    }
}

/// Lay the built-in defaults under the user's merged tree.
pub fn fill_defaults<'a>(user: &mut DeTable<'a>, defaults: DeTable<'a>, shape: TableShape) {
    for (k, v) in defaults {
        let name = k.get_ref().to_string();
        let here = shape_of(shape, &name);
        let Some(slot) = user.get_mut(name.as_str()) else {
            user.insert(k, v);
            continue;
        };
        match (here, slot.get_mut(), v.into_inner()) {
            (Some(Shape::Table(t)), DeValue::Table(a), DeValue::Table(b)) => fill_defaults(a, b, t),
            (Some(Shape::Allowlist(_)), DeValue::Table(a), DeValue::Table(b)) => {
                if replaces_defaults(a) {
                    continue;
                }
                // The user's rule for a name wins whole; every other
                // default rule is kept.
                for (name, rule) in b {
                    let n: &str = name.get_ref();
                    if n != REPLACE_DEFAULTS && !a.contains_key(n) {
                        a.insert(name, rule);
                    }
                }
            }
            (Some(Shape::Named(_)), DeValue::Table(a), DeValue::Table(b)) => {
                // A name the user set is theirs whole (a key they left out
                // keeps its built-in value where it is used); the defaults
                // add the names the user left out.
                for (name, table) in b {
                    let n: &str = name.get_ref();
                    if !a.contains_key(n) {
                        a.insert(name, table);
                    }
                }
            }
            // The user's value stands.
            _ => {}
        }
    }
}

/// Whether an allowlist table says `replace_defaults = true`.
pub fn replaces_defaults(t: &DeTable<'_>) -> bool {
    t.get(REPLACE_DEFAULTS)
        .and_then(|v| v.get_ref().as_bool())
        .unwrap_or(false)
}

/// A key set in the merged tree and where (its key's span, whose file
/// [`Bases::locate`] finds): `limits.max_line_bytes`,
/// `standard.fields.request_id`, `[[sink]] capture`, ...
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Set {
    /// The key as `policy check` shows it.
    pub key: String,
    /// Where it is set.
    pub span: Range<usize>,
}

/// Every key the merged tree sets, with its place.
pub fn settings(root: &DeTable<'_>, shape: TableShape) -> Vec<Set> {
    let mut out = Vec::new();
    walk_settings(root, shape, "", &mut out);
    out
}

fn walk_settings(t: &DeTable<'_>, shape: TableShape, path: &str, out: &mut Vec<Set>) {
    for (k, v) in t {
        let sub = dotted(path, k.get_ref());
        match (shape_of(shape, k.get_ref()), v.get_ref()) {
            (Some(Shape::Table(inner)), DeValue::Table(t)) => walk_settings(t, inner, &sub, out),
            (Some(Shape::Tables(_)), DeValue::Array(items)) => {
                for item in items.iter() {
                    out.push(Set {
                        key: format!("[[{sub}]] {}", item_name(item)),
                        span: item.span(),
                    });
                }
            }
            (Some(Shape::Allowlist(_) | Shape::Named(_)), DeValue::Table(rules)) => {
                for (name, _) in rules {
                    out.push(Set {
                        key: dotted(&sub, name.get_ref()),
                        span: name.span(),
                    });
                }
            }
            _ => out.push(Set {
                key: sub,
                span: k.span(),
            }),
        }
    }
}

/// The name an array-of-tables entry goes by: its `name`, `id` or `path`.
fn item_name(item: &Spanned<DeValue<'_>>) -> String {
    let DeValue::Table(t) = item.get_ref() else {
        return "?".to_string();
    };
    ["name", "id", "path"]
        .iter()
        .find_map(|k| t.get(*k).and_then(|v| v.get_ref().as_str()))
        .map_or_else(|| "?".to_string(), crate::finding::escape_key)
}
