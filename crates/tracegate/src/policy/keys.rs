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

use jiff::SignedDuration;
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
    /// Its range or members, and its built-in default.
    pub spec: Spec,
}

/// What a key's value must be beyond its shape, and its built-in default:
/// the one place both are written. The compiler's range and member checks
/// ([`super::compile`]), the compiled settings' `Default`, the built-in
/// defaults ([`super::defaults`]), the JSON Schema and the reference's
/// default and range columns all read it.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The values accepted.
    pub check: Check,
    /// The value of an absent key.
    pub default: Dflt,
    /// `true`: the default is applied where the key is read (its table is
    /// optional and its presence means something, `[audit]`), not written
    /// into the built-in defaults.
    pub implicit: bool,
}

/// The values a key accepts beyond its shape.
#[derive(Clone, Copy, Debug)]
pub enum Check {
    /// Any value of the shape.
    Any,
    /// An integer from `min` to `max`, both included.
    Int {
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// A positive duration of at most `max`.
    Duration {
        /// The longest.
        max: SignedDuration,
        /// Why it is bounded, said as the hint of a refusal (else the
        /// bound is).
        hint: Option<&'static str>,
    },
    /// One of these strings.
    OneOf(&'static [&'static str]),
}

/// A key's built-in default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dflt {
    /// No default: absent means unset.
    None,
    /// An integer.
    Int(i64),
    /// A duration, written in TOML as humantime (`"5m"`).
    Duration(SignedDuration),
    /// A string.
    Str(&'static str),
    /// A socket address, written as a string.
    Addr(std::net::SocketAddr),
}

impl Spec {
    /// Any value of the shape, no default.
    pub const NONE: Spec = Spec {
        check: Check::Any,
        default: Dflt::None,
        implicit: false,
    };

    /// An integer from `min` to `max`, `default` when absent.
    pub const fn int(min: i64, max: i64, default: i64) -> Spec {
        Spec {
            check: Check::Int { min, max },
            default: Dflt::Int(default),
            implicit: false,
        }
    }

    /// An integer from `min` to `max`, no default.
    pub const fn int_in(min: i64, max: i64) -> Spec {
        Spec {
            check: Check::Int { min, max },
            default: Dflt::None,
            implicit: false,
        }
    }

    /// A positive duration of at most `max`, `default` when absent.
    pub const fn duration(max: SignedDuration, default: SignedDuration) -> Spec {
        Spec {
            check: Check::Duration { max, hint: None },
            default: Dflt::Duration(default),
            implicit: false,
        }
    }

    /// One of `members`, the first when absent.
    pub const fn one_of(members: &'static [&'static str]) -> Spec {
        Spec {
            check: Check::OneOf(members),
            default: match members.first() {
                Some(d) => Dflt::Str(d),
                None => Dflt::None,
            },
            implicit: false,
        }
    }

    /// Any value of the shape, `default` when absent.
    pub const fn value(default: Dflt) -> Spec {
        Spec {
            check: Check::Any,
            default,
            implicit: false,
        }
    }

    /// The same, the refusal of a too long duration hinting `why`.
    pub const fn because(self, why: &'static str) -> Spec {
        let check = match self.check {
            Check::Duration { max, .. } => Check::Duration {
                max,
                hint: Some(why),
            },
            other => other,
        };
        Spec { check, ..self }
    }

    /// The same, the default applied where the key is read instead of
    /// written into the built-in defaults.
    pub const fn implicit(self) -> Spec {
        Spec {
            implicit: true,
            ..self
        }
    }

    /// The integer default (0 for a key without one; a test holds every
    /// integer key read this way to have one).
    pub const fn int_default(&self) -> i64 {
        match self.default {
            Dflt::Int(i) => i,
            _ => 0,
        }
    }

    /// The integer default as a size.
    pub const fn size_default(&self) -> usize {
        let i = self.int_default();
        if i < 0 { 0 } else { i as usize }
    }

    /// The duration default (zero for a key without one; a test holds
    /// every duration key read this way to have one).
    pub const fn duration_default(&self) -> std::time::Duration {
        match self.default {
            Dflt::Duration(d) => d.unsigned_abs(),
            _ => std::time::Duration::ZERO,
        }
    }

    /// The duration default, signed (zero for a key without one).
    pub const fn signed_duration_default(&self) -> SignedDuration {
        match self.default {
            Dflt::Duration(d) => d,
            _ => SignedDuration::ZERO,
        }
    }

    /// The address default (`127.0.0.1:0` for a key without one; a test
    /// holds every address key read this way to have one).
    pub const fn addr_default(&self) -> std::net::SocketAddr {
        match self.default {
            Dflt::Addr(a) => a,
            _ => std::net::SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 0),
        }
    }
}

impl Dflt {
    /// The default as a TOML value (`None` for no default).
    pub fn toml(&self) -> Option<String> {
        match self {
            Dflt::None => None,
            Dflt::Int(i) => Some(i.to_string()),
            Dflt::Duration(d) => Some(format!("\"{d:#}\"")),
            Dflt::Str(s) => Some(format!("{:?}", s)),
            Dflt::Addr(a) => Some(format!("\"{a}\"")),
        }
    }

    /// The default as a JSON value (`None` for no default).
    pub fn json(&self) -> Option<serde_json::Value> {
        match self {
            Dflt::None => None,
            Dflt::Int(i) => Some((*i).into()),
            Dflt::Duration(d) => Some(format!("{d:#}").into()),
            Dflt::Str(s) => Some((*s).into()),
            Dflt::Addr(a) => Some(a.to_string().into()),
        }
    }
}

impl Check {
    /// The range as the reference writes it (`1 to 1048576`, `at most
    /// 1h`, `drop_record, drop_field`); empty for none.
    pub fn describe(&self) -> String {
        match self {
            Check::Any => String::new(),
            Check::Int { min, max } => format!("{min} to {max}"),
            Check::Duration { max, .. } => format!("more than 0, at most {max:#}"),
            Check::OneOf(m) => m
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
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

/// The `Describe` impls of the wrappers a field's type may come in (each
/// reads as the type it wraps) and of the leaf types (each one shape).
macro_rules! describe {
    (wrappers: $($w:ident),*; leaves: $($t:ty => $shape:expr),*) => {
        $(impl<T: Describe> Describe for $w<T> {
            fn shape() -> Shape {
                T::shape()
            }
        })*
        $(impl Describe for $t {
            fn shape() -> Shape {
                $shape
            }
        })*
    };
}

describe!(
    wrappers: Option, Spanned, Box;
    leaves: String => Shape::Str, i64 => Shape::Int, f64 => Shape::Float, bool => Shape::Bool
);

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
                $(#[spec = $spec:expr])?
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

        // Each key as an associated constant named like its field
        // (`RawServer::max_body_bytes`), so that code reading a key's
        // range or default names it once and a typo does not compile.
        #[allow(non_upper_case_globals)]
        impl $name {
            $(
                $(#[doc = $fdoc])+
                pub const $field: $crate::policy::keys::Key = $crate::policy::keys::Key {
                    name: $crate::policy::keys::key_name(stringify!($field)),
                    doc: concat!($($fdoc),+),
                    shape: <$ty as $crate::policy::keys::Describe>::shape,
                    spec: $crate::policy::keys::spec_or_none!($($spec)?),
                };
            )*

            /// The keys of this table, as serde reads them.
            pub fn keys() -> &'static [$crate::policy::keys::Key] {
                const KEYS: &[$crate::policy::keys::Key] = &[$($name::$field),*];
                KEYS
            }
        }
    };
}

pub(crate) use raw_table;

/// A field's `#[spec = ...]`, or [`Spec::NONE`].
macro_rules! spec_or_none {
    () => {
        $crate::policy::keys::Spec::NONE
    };
    ($spec:expr) => {
        $spec
    };
}

pub(crate) use spec_or_none;

/// The keys of the table `keys` called `name`.
pub fn find(keys: &'static [Key], name: &str) -> Option<&'static Key> {
    keys.iter().find(|k| k.name == name)
}

/// The dotted key of `key` in the table at `path` (`key` at the top level).
pub fn dotted(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
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
