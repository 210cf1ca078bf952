//! The policy's key table, derived from the `Raw*` types themselves.
//!
//! Every `Raw*` table in `super::raw` is declared through the
//! `raw_table!` macro, which writes the serde struct *and* its
//! [`Describe`] impl from one list of fields: the key's name (serde's,
//! `r#type` reads as `type`), its doc comment and its shape (from the
//! field's Rust type). So the unknown-key check, the type check that
//! reports every mistyped value at once, the generic merge, the JSON
//! Schema and the reference test all read the same table, and adding a
//! key is one line: a field in a `raw_table!`.

use std::collections::BTreeMap;

use toml::Spanned;

/// What a key holds.
#[derive(Clone, Copy)]
pub enum Shape {
    /// A string.
    Str,
    /// An integer (fits `i64`).
    Int,
    /// A number (integer or float).
    Float,
    /// `true` or `false`.
    Bool,
    /// An RFC 3339 time: a string or an unquoted TOML datetime.
    Time,
    /// `true`, `false` or a list of strings (a sink's `redact`).
    BoolOrStrings,
    /// An integer, or a table of integers by name (a sink's
    /// `max_free_bits`: one limit, or one per record format).
    IntOrInts,
    /// An array of one shape.
    List(fn() -> Shape),
    /// A table with fixed keys (`[server]`).
    Table(TableShape),
    /// An array of tables (`[[sink]]`).
    Tables(TableShape),
    /// An allowlist: names to field rules. It extends the built-in
    /// defaults unless it says `replace_defaults = true`.
    Allowlist(fn() -> Shape),
    /// Names to field rules, replaced whole (an object rule's members).
    Map(fn() -> Shape),
    /// One field rule standing alone, replaced whole (`[standard.otlp]
    /// schema_url`).
    Rule(fn() -> Shape),
    /// Tables of one shape under names the user picks (`[redact.context.<detector>]`):
    /// each name's table is replaced whole, a name set in two files is an
    /// error, and the defaults fill in the names the user left out.
    Named(fn() -> Shape),
}

/// A table's name (its Rust type, for the JSON Schema's definitions) and keys.
#[derive(Clone, Copy)]
pub struct TableShape {
    /// `RawServer`, ...
    pub type_name: &'static str,
    /// Its keys, in declaration order.
    pub keys: fn() -> &'static [Key],
}

/// One key of a table.
#[derive(Clone, Copy)]
pub struct Key {
    /// The name as written in TOML.
    pub name: &'static str,
    /// Its doc comment, one sentence or more.
    pub doc: &'static str,
    /// What it holds.
    pub shape: fn() -> Shape,
}

/// How the key table and the docs write the name of a [`Shape::Named`]
/// table: `[redact.context.<detector>]`.
pub const NAMED_PLACEHOLDER: &str = "detector";

/// The directive an allowlist table may hold besides its field rules.
pub const REPLACE_DEFAULTS: &str = "replace_defaults";

/// A type that reads some TOML shape.
pub trait Describe {
    /// The shape it reads.
    fn shape() -> Shape;
}

impl<T: Describe> Describe for Option<T> {
    fn shape() -> Shape {
        T::shape()
    }
}

impl<T: Describe> Describe for Spanned<T> {
    fn shape() -> Shape {
        T::shape()
    }
}

impl<T: Describe> Describe for Box<T> {
    fn shape() -> Shape {
        T::shape()
    }
}

impl<T: Describe> Describe for Vec<T> {
    fn shape() -> Shape {
        match T::shape() {
            Shape::Table(t) => Shape::Tables(t),
            _ => Shape::List(T::shape),
        }
    }
}

impl<K, V: Describe> Describe for BTreeMap<K, V> {
    fn shape() -> Shape {
        Shape::Map(V::shape)
    }
}

impl Describe for String {
    fn shape() -> Shape {
        Shape::Str
    }
}

impl Describe for i64 {
    fn shape() -> Shape {
        Shape::Int
    }
}

impl Describe for f64 {
    fn shape() -> Shape {
        Shape::Float
    }
}

impl Describe for bool {
    fn shape() -> Shape {
        Shape::Bool
    }
}

/// A field name as serde reads it: `r#type` is `type`.
pub const fn key_name(s: &'static str) -> &'static str {
    match s.as_bytes() {
        [b'r', b'#', rest @ ..] => match std::str::from_utf8(rest) {
            Ok(k) => k,
            Err(_) => s,
        },
        _ => s,
    }
}

/// Declare a `Raw*` policy table: the serde struct (every field optional,
/// unknown keys denied) and its [`Describe`] impl, from one field list.
/// Every field needs a doc comment: it is the key's description in the
/// JSON Schema.
macro_rules! raw_table {
    (
        $(#[doc = $doc:literal])*
        pub struct $name:ident {
            $(
                $(#[doc = $fdoc:literal])+
                pub $field:ident : $ty:ty,
            )*
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Default, serde::Deserialize, PartialEq)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $(
                $(#[doc = $fdoc])+
                pub $field: $ty,
            )*
        }

        impl $crate::policy::keys::Describe for $name {
            fn shape() -> $crate::policy::keys::Shape {
                $crate::policy::keys::Shape::Table($crate::policy::keys::TableShape {
                    type_name: stringify!($name),
                    keys: $name::keys,
                })
            }
        }

        impl $name {
            /// The keys of this table, as serde reads them.
            pub fn keys() -> &'static [$crate::policy::keys::Key] {
                const KEYS: &[$crate::policy::keys::Key] = &[
                    $(
                        $crate::policy::keys::Key {
                            name: $crate::policy::keys::key_name(stringify!($field)),
                            doc: concat!($($fdoc),+),
                            shape: <$ty as $crate::policy::keys::Describe>::shape,
                        },
                    )*
                ];
                KEYS
            }
        }
    };
}

pub(crate) use raw_table;

/// The keys of the table `keys` called `name`.
pub fn find(keys: &'static [Key], name: &str) -> Option<&'static Key> {
    keys.iter().find(|k| k.name == name)
}

/// A table's header as a user writes it: `[server]`, `[[sink]]`, `the top level`.
pub fn table_title(path: &str, array: bool) -> String {
    match (path.is_empty(), array) {
        (true, _) => "the top level".to_string(),
        (false, true) => format!("[[{path}]]"),
        (false, false) => format!("[{path}]"),
    }
}

/// Every table of the policy with its dotted path, whether it is an array
/// of tables, and its keys; field rules once, as `field rule`. For the
/// reference and its test.
pub fn all_tables(root: TableShape) -> Vec<(String, bool, TableShape)> {
    let mut out = Vec::new();
    let mut seen = Vec::new();
    walk_tables(root, String::new(), false, &mut out, &mut seen);
    out
}

fn walk_tables(
    t: TableShape,
    path: String,
    array: bool,
    out: &mut Vec<(String, bool, TableShape)>,
    seen: &mut Vec<&'static str>,
) {
    out.push((path.clone(), array, t));
    for k in (t.keys)() {
        let sub = if path.is_empty() {
            k.name.to_string()
        } else {
            format!("{path}.{}", k.name)
        };
        let mut shape = (k.shape)();
        // Allowlists, member maps and lone rules hold field rules: described once.
        if let Shape::Allowlist(inner) | Shape::Map(inner) | Shape::Rule(inner) = shape {
            shape = inner();
            if let Shape::Table(rule) = shape
                && !seen.contains(&rule.type_name)
            {
                seen.push(rule.type_name);
                walk_tables(rule, "field rule".to_string(), false, out, seen);
            }
            continue;
        }
        match shape {
            Shape::Named(inner) => {
                if let Shape::Table(t) = inner()
                    && !seen.contains(&t.type_name)
                {
                    seen.push(t.type_name);
                    walk_tables(t, format!("{sub}.<{NAMED_PLACEHOLDER}>"), false, out, seen);
                }
            }
            Shape::Table(inner) if !seen.contains(&inner.type_name) => {
                walk_tables(inner, sub, false, out, seen)
            }
            Shape::Tables(inner) if !seen.contains(&inner.type_name) => {
                walk_tables(inner, sub, true, out, seen)
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_identifiers_read_as_their_key() {
        assert_eq!(key_name("r#type"), "type");
        assert_eq!(key_name("name"), "name");
        assert_eq!(key_name("r"), "r");
    }
}
