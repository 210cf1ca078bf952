//! Compiled allowlist rules: a [`FieldSet`] maps field names to
//! [`FieldRule`]s, each a type plus constraints.

use regex::Regex;

/// The JSON type a field must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    /// A JSON string.
    String,
    /// Any JSON number.
    Number,
    /// A JSON number written without fraction or exponent that fits in i64.
    Integer,
    /// `true` or `false`.
    Boolean,
    /// Only `null`.
    Null,
    /// An array whose elements follow `items`.
    Array,
    /// An object whose members follow `fields`.
    Object,
}

impl ValueType {
    /// Parse a policy type name.
    pub fn parse(s: &str) -> Option<ValueType> {
        Some(match s {
            "string" => ValueType::String,
            "number" => ValueType::Number,
            "integer" => ValueType::Integer,
            "boolean" => ValueType::Boolean,
            "null" => ValueType::Null,
            "array" => ValueType::Array,
            "object" => ValueType::Object,
            _ => return None,
        })
    }

    /// The policy name of the type.
    pub fn as_str(self) -> &'static str {
        match self {
            ValueType::String => "string",
            ValueType::Number => "number",
            ValueType::Integer => "integer",
            ValueType::Boolean => "boolean",
            ValueType::Null => "null",
            ValueType::Array => "array",
            ValueType::Object => "object",
        }
    }
}

/// One allowlisted field's type and constraints.
#[derive(Debug, Clone)]
pub struct FieldRule {
    /// Required type.
    pub ty: ValueType,
    /// `null` accepted besides `ty`.
    pub nullable: bool,
    /// Anchored pattern for strings.
    pub pattern: Option<Regex>,
    /// Permitted strings.
    pub one_of: Option<Vec<String>>,
    /// Inclusive lower bound for numbers.
    pub min: Option<f64>,
    /// Inclusive upper bound for numbers.
    pub max: Option<f64>,
    /// Longest string in bytes.
    pub max_len: Option<usize>,
    /// Must be present.
    pub required: bool,
    /// Element rule for arrays.
    pub items: Option<Box<FieldRule>>,
    /// Most array elements.
    pub max_items: Option<usize>,
    /// Member rules for objects.
    pub fields: Option<FieldSet>,
}

impl PartialEq for FieldRule {
    fn eq(&self, o: &FieldRule) -> bool {
        self.ty == o.ty
            && self.nullable == o.nullable
            && self.pattern.as_ref().map(Regex::as_str) == o.pattern.as_ref().map(Regex::as_str)
            && self.one_of == o.one_of
            && self.min == o.min
            && self.max == o.max
            && self.max_len == o.max_len
            && self.required == o.required
            && self.items == o.items
            && self.max_items == o.max_items
            && self.fields == o.fields
    }
}

/// An allowlist: names and their rules, looked up on the hot path.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldSet {
    names: Vec<Box<str>>,
    rules: Vec<FieldRule>,
    required: Vec<usize>,
}

impl FieldSet {
    /// Build from `(name, rule)` pairs; names are unique (the TOML map
    /// guarantees it).
    pub fn new(entries: Vec<(String, FieldRule)>) -> FieldSet {
        let mut set = FieldSet::default();
        for (name, rule) in entries {
            if rule.required {
                set.required.push(set.names.len());
            }
            set.names.push(name.into_boxed_str());
            set.rules.push(rule);
        }
        set
    }

    /// The index and rule of `name`.
    ///
    /// A linear scan comparing lengths first beats hashing for the ten-odd
    /// fields of an allowlist; sets are small by design.
    pub fn lookup(&self, name: &str) -> Option<(usize, &FieldRule)> {
        let i = self
            .names
            .iter()
            .position(|n| n.len() == name.len() && n.as_ref() == name)?;
        Some((i, &self.rules[i]))
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the set allows nothing.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Indexes of required fields.
    pub fn required(&self) -> &[usize] {
        &self.required
    }

    /// The name at an index.
    pub fn name(&self, i: usize) -> &str {
        self.names.get(i).map_or("", |n| n.as_ref())
    }

    /// Iterate `(name, rule)`.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &FieldRule)> {
        self.names.iter().map(|n| n.as_ref()).zip(self.rules.iter())
    }
}
