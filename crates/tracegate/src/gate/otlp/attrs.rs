//! OTLP attribute lists: `[{"key": "...", "value": AnyValue}, ...]`.
//!
//! An attribute is allowlisted (held to its [`FieldRule`]), a content
//! attribute (stripped at standard, a string at full), or unknown
//! (stripped). The AnyValue maps to rule types as follows:
//!
//! | rule type | accepted AnyValue |
//! |---|---|
//! | `string` | `stringValue` |
//! | `integer` | `intValue` (a JSON string of an i64, or a JSON integer) |
//! | `number` | `doubleValue` (a JSON number) or `intValue` |
//! | `boolean` | `boolValue` |
//! | `null` / `nullable` | an empty AnyValue (`{}` or no `value`) |
//!
//! `arrayValue`, `kvlistValue` and `bytesValue` never satisfy a rule: they
//! are a `type` violation under an allowlisted key, whatever the key.
//! `doubleValue` written as a string (`"NaN"`, `"Infinity"`) is a `type`
//! violation too.

use std::borrow::Cow;
use std::io::Write as _;

use super::Judge;
use super::schema::Place;
use crate::finding::Rule;
use crate::gate::verify::{Seg, Walk};
use crate::otlp_schema::keys;
use crate::policy::content::is_content_attribute;
use crate::policy::{FieldRule, FieldSet, ValueType};
use crate::record::canonical;
use crate::record::tape::{Kind, string_value};
use crate::window::Level;

/// The value of an AnyValue object, by token index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Any {
    /// No value (`{}`).
    Empty,
    /// `stringValue`.
    String(usize),
    /// `boolValue`.
    Bool(usize),
    /// `intValue`.
    Int(usize),
    /// `doubleValue`.
    Double(usize),
    /// `arrayValue`, `kvlistValue` or `bytesValue`: never a scalar.
    Nested,
}

/// Why an AnyValue object is not one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BadAny;

/// Read the AnyValue object at `v`: exactly one known member, or none.
pub fn any_value(walk: &Walk<'_>, v: usize) -> Result<Any, BadAny> {
    let tokens = walk.tape.tokens();
    if tokens.get(v).map(|t| t.kind) != Some(Kind::Object) {
        return Err(BadAny);
    }
    let mut members = walk.tape.members(v);
    let Some((k, val)) = members.next() else {
        return Ok(Any::Empty);
    };
    if members.next().is_some() {
        return Err(BadAny);
    }
    let kind = tokens[val].kind;
    let any = match (&*string_value(walk.text, &tokens[k]), kind) {
        (keys::STRING, Kind::String) => Any::String(val),
        (keys::BOOL, Kind::True | Kind::False) => Any::Bool(val),
        (keys::INT, Kind::String | Kind::Number) => Any::Int(val),
        (keys::DOUBLE, Kind::Number) => Any::Double(val),
        (keys::ARRAY | keys::KVLIST | keys::BYTES, _) => Any::Nested,
        _ => return Err(BadAny),
    };
    Ok(any)
}

/// One attribute element, split into its parts.
struct Attr {
    /// The `key` string token.
    key: usize,
    /// The `value` token, when present.
    value: Option<usize>,
    /// Token of the `value` member's key, for copying it raw.
    value_key: Option<usize>,
}

impl<'a> Judge<'a, '_> {
    fn allowlist(&self, place: Place) -> &'a FieldSet {
        let o = &self.policy.standard.otlp;
        match place {
            Place::Resource => &o.resource_attributes,
            Place::Scope => &o.scope_attributes,
            Place::Span => &o.span_attributes,
            Place::Event => &o.event_attributes,
            Place::Link => &o.link_attributes,
            Place::Log => &o.log_attributes,
        }
    }

    /// Check an attribute list and write its projection.
    pub(super) fn attributes(&mut self, place: Place, arr: usize) {
        self.duplicate_keys(arr);
        self.out.push(b'[');
        let mut first = true;
        for (i, el) in self.walk.tape.elements(arr).enumerate() {
            let mark = self.out.len();
            if !first {
                self.out.push(b',');
            }
            let Some(attr) = self.split(el, i) else {
                self.out.truncate(mark);
                continue;
            };
            self.segs.push(Seg::Attr(attr.key));
            let keep = self.attribute(place, &attr);
            self.segs.pop();
            if keep {
                first = false;
            } else {
                self.out.truncate(mark);
            }
        }
        self.out.push(b']');
    }

    /// Split an attribute element; `None` (with a violation) when it is not
    /// an object with a string `key`. Unknown members are stripped.
    fn split(&mut self, el: usize, i: usize) -> Option<Attr> {
        self.segs.push(Seg::Index(i));
        let attr = self.split_inner(el);
        self.segs.pop();
        attr
    }

    fn split_inner(&mut self, el: usize) -> Option<Attr> {
        if self.tok(el).kind != Kind::Object {
            self.violation(Rule::Type, "attribute must be an object with key and value");
            return None;
        }
        let mut attr = Attr {
            key: 0,
            value: None,
            value_key: None,
        };
        let mut key = None;
        let mut unknown = 0u32;
        for (k, v) in self.walk.tape.members(el) {
            match (&*self.decoded(k), self.tok(v).kind) {
                (keys::KEY, Kind::String) => key = Some(v),
                (keys::VALUE, _) => {
                    attr.value = Some(v);
                    attr.value_key = Some(k);
                }
                _ => unknown += 1,
            }
        }
        let Some(key) = key else {
            self.violation(Rule::Type, "attribute must have a string key");
            return None;
        };
        attr.key = key;
        if unknown > 0 {
            self.segs.push(Seg::Attr(key));
            for _ in 0..unknown {
                self.strip(
                    Rule::UnknownField,
                    "attribute holds a member other than key and value",
                );
            }
            self.segs.pop();
        }
        Some(attr)
    }

    /// Decide one attribute and append it when kept.
    fn attribute(&mut self, place: Place, attr: &Attr) -> bool {
        let key = self.decoded(attr.key);
        let any = match attr.value {
            None => Ok(Any::Empty),
            Some(v) => any_value(&self.walk, v),
        };
        if let Some((_, rule)) = self.allowlist(place).lookup(&key) {
            if rule.ty == ValueType::Array {
                return self.array_attr(rule, attr);
            }
            let Ok(any) = any else {
                return self.violation(Rule::Type, "attribute value is not a valid AnyValue");
            };
            if !self.check_any(rule, any) {
                return false;
            }
            if let Any::String(t) = any
                && let Some(p) = self.pseudonyms
                && p.names.iter().any(|n| *n == key)
            {
                // SECURITY: the sink pseudonymizes this attribute: a keyed
                // pseudonym of the same shape goes out, never the value.
                self.recanon = true;
                let id = crate::redact::pseudonymize(p.key, &self.decoded(t), p.prefixes);
                self.out.extend_from_slice(b"{\"key\":");
                self.string(attr.key);
                self.out.extend_from_slice(b",\"value\":{\"stringValue\":");
                crate::record::escape::write_json_string(&id, self.out);
                self.out.extend_from_slice(b"}}");
                return true;
            }
            self.write_attr(attr, any);
            return true;
        }
        if is_content_attribute(&self.policy.full.content_attributes, &key) {
            self.has_content = true;
            return self.content_attr(attr, any);
        }
        self.strip(Rule::UnknownField, unknown_message(place));
        false
    }

    /// A content attribute: stripped at standard; a string at full.
    fn content_attr(&mut self, attr: &Attr, any: Result<Any, BadAny>) -> bool {
        if self.level == Level::Standard {
            self.strip(
                Rule::ContentField,
                "content attribute is not allowed at standard level",
            );
            return false;
        }
        let mark = self.out.len();
        let written = match (any, attr.value) {
            (Ok(Any::String(s)), _) => {
                self.out.extend_from_slice(b"{\"key\":");
                self.string(attr.key);
                self.out.extend_from_slice(b",\"value\":");
                self.content_string(s)
            }
            // Structured content (arrays of messages, kvlists): captured
            // whole, every string redacted (`structured`).
            (Ok(Any::Nested), Some(v)) => {
                self.out.extend_from_slice(b"{\"key\":");
                self.string(attr.key);
                self.out.extend_from_slice(b",\"value\":");
                self.structured_content(v)
            }
            _ => {
                // SECURITY: content at full level is text or a structure of
                // text; anything else is dropped.
                self.strip(
                    Rule::Type,
                    "content attribute must be a stringValue, arrayValue or kvlistValue",
                );
                return false;
            }
        };
        if !written {
            self.out.truncate(mark);
            return false;
        }
        self.out.push(b'}');
        true
    }

    /// Append `{"key":K,"value":{M:V}}` from verified tokens, in canonical
    /// form (`record::canonical`).
    fn write_attr(&mut self, attr: &Attr, any: Any) {
        self.out.extend_from_slice(b"{\"key\":");
        self.string(attr.key);
        if let Some(vk) = attr.value_key {
            self.out.push(b',');
            self.string(vk);
            self.out.push(b':');
            let inner = match any {
                Any::String(t) | Any::Bool(t) | Any::Int(t) | Any::Double(t) => Some(t),
                Any::Empty | Any::Nested => None,
            };
            match (inner, attr.value) {
                (Some(t), Some(v)) => {
                    let member_key = self.walk.tape.members(v).next().map(|(k, _)| k);
                    self.out.push(b'{');
                    if let Some(mk) = member_key {
                        self.string(mk);
                        self.out.push(b':');
                    }
                    self.write_any(any, t);
                    self.out.push(b'}');
                }
                _ => self.out.extend_from_slice(b"{}"),
            }
        }
        self.out.push(b'}');
    }

    /// Append the verified value token `t` of `any` in canonical form.
    pub(super) fn write_any(&mut self, any: Any, t: usize) {
        let tok = self.tok(t);
        match any {
            Any::Double(_) => {
                // SECURITY: a number that is no finite double broke its rule
                // and is never written; `null` only guards a bug.
                if !canonical::write_double(self.raw(t), tok.canonical, self.out) {
                    self.out.extend_from_slice(b"null");
                }
            }
            Any::Int(_) => {
                let text = self.decoded(t);
                match text.parse::<i64>() {
                    // SECURITY: an intValue has one decimal spelling
                    // (leading zeros, `-0` are channels); same JSON kind.
                    Ok(n) if tok.kind == Kind::String && !plain_decimal(&text) => {
                        let _ = write!(self.out, "\"{n}\"");
                    }
                    _ => {
                        self.copy(t);
                    }
                }
            }
            _ => {
                self.copy(t);
            }
        }
    }

    /// Hold an AnyValue to an allowlisted attribute's rule.
    fn check_any(&mut self, rule: &FieldRule, any: Any) -> bool {
        let checked = match (any, rule.ty) {
            (Any::Empty, _) if rule.nullable || rule.ty == ValueType::Null => return true,
            (Any::String(t), ValueType::String) | (Any::Double(t), ValueType::Number) => {
                let c = self.walk.check(rule, t, self.segs, self.findings);
                self.recanon |= c.rewrite;
                c
            }
            (Any::Bool(_), ValueType::Boolean) => return true,
            (Any::Int(t), ValueType::Integer | ValueType::Number) => {
                return self.int_value(rule, t);
            }
            (any, ty) => return self.violation(Rule::Type, type_message(any, ty)),
        };
        if checked.violated {
            self.note_violation();
        }
        !checked.violated
    }

    /// An allowlisted `type = "array"` attribute (`string[]`, `int[]`...
    /// of the conventions): an `arrayValue` whose `values` are at most
    /// `max_items` scalar AnyValues, each held to the rule's `items`.
    /// Written in canonical form; `false` (a violation) otherwise.
    fn array_attr(&mut self, rule: &FieldRule, attr: &Attr) -> bool {
        let Some(v) = attr.value else {
            if rule.nullable {
                self.write_attr(attr, Any::Empty);
                return true;
            }
            return self.violation(Rule::Type, "attribute value is empty");
        };
        // SECURITY: only scalars held to `items` pass; an array of arrays or
        // kvlists, or an item rule that is itself an array, is a violation.
        let Some(items) = rule.items.as_deref().filter(|i| i.ty != ValueType::Array) else {
            return self.violation(Rule::Type, "an array attribute rule needs scalar `items`");
        };
        let Some(values) = self.array_values(v) else {
            return self.violation(Rule::Type, "expected an arrayValue of scalar values");
        };
        let max = rule.max_items.unwrap_or(usize::MAX);
        if self.walk.tape.elements(values).nth(max).is_some() {
            return self.violation(
                Rule::MaxItems,
                "array attribute has more items than max_items",
            );
        }
        let mark = self.out.len();
        self.out.extend_from_slice(b"{\"key\":");
        self.string(attr.key);
        self.out.extend_from_slice(b",\"value\":");
        let start = self.out.len();
        self.out.extend_from_slice(b"{\"arrayValue\":{\"values\":[");
        for (i, el) in self.walk.tape.elements(values).enumerate() {
            let any = match any_value(&self.walk, el) {
                Ok(a @ (Any::String(_) | Any::Int(_) | Any::Double(_) | Any::Bool(_))) => a,
                _ => {
                    self.out.truncate(mark);
                    return self.violation(Rule::Type, "array items must be scalar AnyValues");
                }
            };
            self.segs.push(Seg::Index(i));
            let ok = self.check_any(items, any);
            self.segs.pop();
            if !ok {
                self.out.truncate(mark);
                return false;
            }
            if i > 0 {
                self.out.push(b',');
            }
            let (name, t) = match any {
                Any::String(t) => (keys::STRING, t),
                Any::Int(t) => (keys::INT, t),
                Any::Double(t) => (keys::DOUBLE, t),
                Any::Bool(t) => (keys::BOOL, t),
                Any::Empty | Any::Nested => return false,
            };
            let _ = write!(self.out, "{{\"{name}\":");
            self.write_any(any, t);
            self.out.push(b'}');
        }
        self.out.extend_from_slice(b"]}}");
        // Verbatim only when the value was written exactly so (whitespace
        // and escapes are the tape's own checks).
        if self.out.get(start..) != Some(self.raw(v).as_bytes()) {
            self.recanon = true;
        }
        self.out.push(b'}');
        true
    }

    /// The `values` array of `{"arrayValue":{"values":[...]}}` at `v` (an
    /// absent `values` is the empty array of protobuf: `None` here, a
    /// violation, as nothing else would be written for it).
    fn array_values(&self, v: usize) -> Option<usize> {
        let mut members = self.walk.tape.members(v);
        let (k, inner) = members.next()?;
        if members.next().is_some() || self.decoded(k) != keys::ARRAY {
            return None;
        }
        let mut members = self.walk.tape.members(inner);
        let (k, values) = members.next()?;
        if members.next().is_some() || self.decoded(k) != keys::VALUES {
            return None;
        }
        (self.tok(values).kind == Kind::Array).then_some(values)
    }

    /// An `intValue`: a JSON string of an i64, or a JSON integer.
    fn int_value(&mut self, rule: &FieldRule, t: usize) -> bool {
        let tok = self.tok(t);
        let text = match tok.kind {
            Kind::String => self.decoded(t),
            _ => Cow::Borrowed(self.raw(t)),
        };
        let digits = text.strip_prefix('-').unwrap_or(&text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return self.violation(Rule::Type, "intValue must be an integer");
        }
        let Ok(n) = text.parse::<i64>() else {
            return self.violation(Rule::Range, "intValue does not fit in 64 bits");
        };
        if tok.kind == Kind::String && !plain_decimal(&text) {
            self.recanon = true;
        }
        let checked = self.walk.range(rule, n as f64, self.segs, self.findings);
        if checked.violated {
            self.note_violation();
        }
        !checked.violated
    }

    /// SECURITY: the same attribute key twice in one list is malformed
    /// (docs/reference.md): consumers disagree on which value wins, so a second value
    /// could slip past a check made on the first. Lists nested in
    /// `kvlistValue`s are checked too, at any depth (bounded by the tape's
    /// depth limit).
    fn duplicate_keys(&mut self, arr: usize) {
        let mut keys = std::mem::take(&mut self.scratch.keys);
        keys.clear();
        for el in self.walk.tape.elements(arr) {
            if let Some(k) = self.member_of(el, keys::KEY, Kind::String) {
                keys.push(k);
            }
        }
        let text = self.walk.text;
        let tokens = self.walk.tape.tokens();
        let key_of = |i: usize| string_value(text, &tokens[i]);
        keys.sort_unstable_by(|&a, &b| key_of(a).cmp(&key_of(b)));
        let dup = keys
            .windows(2)
            .find(|w| key_of(w[0]) == key_of(w[1]))
            .map(|w| w[1]);
        self.scratch.keys = keys;
        if let Some(k) = dup {
            self.report_duplicate(k);
            return;
        }
        for el in self.walk.tape.elements(arr) {
            if self.malformed {
                return;
            }
            if let Some(v) = self.member_of(el, keys::VALUE, Kind::Object) {
                self.nested_lists(v);
            }
        }
    }

    /// Check the key-value lists inside one AnyValue object.
    fn nested_lists(&mut self, any: usize) {
        let Some((k, v)) = self.walk.tape.members(any).next() else {
            return;
        };
        if self.tok(v).kind != Kind::Object {
            return;
        }
        let Some(values) = self.member_of(v, keys::VALUES, Kind::Array) else {
            return;
        };
        match &*self.decoded(k) {
            keys::KVLIST => self.duplicate_keys(values),
            keys::ARRAY => {
                for el in self.walk.tape.elements(values) {
                    if self.tok(el).kind == Kind::Object && !self.malformed {
                        self.nested_lists(el);
                    }
                }
            }
            _ => {}
        }
    }

    /// The value token of member `name` of object `obj`, when it has `kind`.
    fn member_of(&self, obj: usize, name: &str, kind: Kind) -> Option<usize> {
        if self.tok(obj).kind != Kind::Object {
            return None;
        }
        self.walk
            .tape
            .members(obj)
            .find(|&(k, v)| self.tok(v).kind == kind && self.decoded(k) == name)
            .map(|(_, v)| v)
    }

    fn report_duplicate(&mut self, key: usize) {
        self.segs.push(Seg::Attr(key));
        self.findings.push(crate::finding::Finding {
            line: self.walk.line,
            kind: crate::finding::FindingKind::Malformed,
            rule: Rule::DuplicateKey,
            field: Some(self.walk.path(self.segs)),
            message: "attribute key appears twice in one list, compared after unescaping".into(),
        });
        self.segs.pop();
        self.malformed = true;
    }
}

/// Whether an integer's text (already known to parse) is its one decimal
/// spelling: no leading zeros, no `-0`.
pub(super) fn plain_decimal(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    match digits.as_bytes() {
        [b'0'] => digits.len() == text.len(),
        [b'0', ..] => false,
        _ => true,
    }
}

pub(super) fn unknown_message(place: Place) -> &'static str {
    match place {
        Place::Resource => "attribute is not on the resource_attributes allowlist",
        Place::Scope => "attribute is not on the scope_attributes allowlist",
        Place::Span => "attribute is not on the span_attributes allowlist",
        Place::Event => "attribute is not on the event_attributes allowlist",
        Place::Link => "attribute is not on the link_attributes allowlist",
        Place::Log => "attribute is not on the log_attributes allowlist",
    }
}

fn type_message(any: Any, ty: ValueType) -> &'static str {
    match (any, ty) {
        (Any::Nested, _) => "nested or bytes values are never allowed where a scalar is",
        (_, ValueType::String) => "expected a stringValue",
        (_, ValueType::Integer) => "expected an intValue",
        (_, ValueType::Number) => "expected a doubleValue or intValue",
        (_, ValueType::Boolean) => "expected a boolValue",
        (Any::Empty, _) => "attribute value is empty",
        _ => "attribute rules support string, integer, number and boolean types",
    }
}
