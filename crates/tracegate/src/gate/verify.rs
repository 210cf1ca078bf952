//! Holding one value to one [`FieldRule`], recursively, and writing the
//! verified projection of a value.
//!
//! **Invariant:** messages are built from rule facts and JSON type names
//! only; a value's text is read to be checked and never copied into a
//! finding.

use crate::finding::{Finding, FindingKind, Rule, escape_key_into, push_decimal};
use crate::policy::{FieldRule, FieldSet, ValueType};
use crate::record::canonical;
use crate::record::tape::{Kind, Tape, Token, raw, string_value};

/// One step of a path from the record's top to a value.
#[derive(Clone, Copy)]
pub enum Seg {
    /// An object member, by its key token.
    Key(usize),
    /// An array element, by its index.
    Index(usize),
    /// An OTLP attribute, by the token of its `key` string: shown as
    /// `["name"]`, escaped and cut like any key.
    Attr(usize),
}

/// The read-only context of one record's walk.
pub struct Walk<'a> {
    /// The line's text.
    pub text: &'a str,
    /// Its tape.
    pub tape: &'a Tape,
    /// The line number, for findings.
    pub line: u64,
    /// The standard level's detectors, run over allowlisted strings.
    pub detectors: &'a super::detect::Detectors,
}

/// What checking a value found.
#[derive(Debug, Default, Clone, Copy)]
pub struct Checked {
    /// A constraint was broken somewhere in the value.
    pub violated: bool,
    /// Unknown members were found inside (they will be stripped).
    pub stripped: u32,
    /// A value met its rule but is not written in its canonical form for
    /// that rule (a plain integer too long for a double under
    /// `type = "number"`): the record must be rewritten.
    pub rewrite: bool,
}

impl Walk<'_> {
    fn tok(&self, i: usize) -> &Token {
        &self.tape.tokens()[i]
    }

    /// Render a path like `events[2].stage`, keys escaped and cut.
    pub fn path(&self, segs: &[Seg]) -> String {
        // Written for every finding (two per span that carries content):
        // no formatting machinery, no string per segment.
        let mut s = String::with_capacity(16 * segs.len());
        for seg in segs {
            match *seg {
                Seg::Key(k) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    escape_key_into(&mut s, &string_value(self.text, self.tok(k)));
                }
                Seg::Index(i) => {
                    s.push('[');
                    push_decimal(&mut s, i as u64);
                    s.push(']');
                }
                Seg::Attr(k) => {
                    s.push_str("[\"");
                    escape_key_into(&mut s, &string_value(self.text, self.tok(k)));
                    s.push_str("\"]");
                }
            }
        }
        s
    }

    /// A violation finding at `segs`.
    pub fn finding(&self, segs: &[Seg], rule: Rule, message: String) -> Finding {
        Finding {
            line: self.line,
            kind: FindingKind::Violation,
            rule,
            field: Some(self.path(segs)),
            message,
        }
    }

    /// Check the value at token `v` against `rule`, pushing findings.
    pub fn check(
        &self,
        rule: &FieldRule,
        v: usize,
        segs: &mut Vec<Seg>,
        out: &mut Vec<Finding>,
    ) -> Checked {
        let t = *self.tok(v);
        let mut c = Checked::default();
        if t.kind == Kind::Null && (rule.nullable || rule.ty == ValueType::Null) {
            return c;
        }
        match (t.kind, rule.ty) {
            (Kind::String, ValueType::String) => {
                let s = string_value(self.text, &t);
                match rule.check_string(&s) {
                    // SECURITY: a value that fits its pattern can still hold
                    // a card number or an email; `one_of` values are the
                    // policy's own words.
                    Ok(()) => match rule
                        .one_of
                        .is_none()
                        .then(|| self.detectors.hit(&s))
                        .flatten()
                    {
                        Some(hit) => self.fail(segs, hit, super::detect::message(hit), out),
                        None => c,
                    },
                    Err(b) => self.fail(segs, b.rule(), b.message(), out),
                }
            }
            (Kind::Number, ValueType::Number | ValueType::Integer) => {
                let literal = raw(self.text, &t);
                match rule.check_number(literal) {
                    Ok(()) => {
                        // SECURITY: digits a double cannot hold are a channel
                        // no rule reads; the projection writes the double.
                        c.rewrite = rule.ty == ValueType::Number
                            && canonical::too_precise_for_a_double(literal.as_bytes());
                        c
                    }
                    Err(b) => self.fail(segs, b.rule(), b.message(), out),
                }
            }
            (Kind::True | Kind::False, ValueType::Boolean) => c,
            (Kind::Null, ValueType::Null) => c,
            (Kind::Array, ValueType::Array) => {
                let Some(items) = rule.items.as_deref() else {
                    return self.fail(segs, Rule::Type, "array has no element rule".into(), out);
                };
                for (i, el) in self.tape.elements(v).enumerate() {
                    if let Some(max) = rule.max_items
                        && i >= max
                    {
                        return self.fail(
                            segs,
                            Rule::MaxItems,
                            format!("array has more than {max} elements"),
                            out,
                        );
                    }
                    segs.push(Seg::Index(i));
                    let e = self.check(items, el, segs, out);
                    segs.pop();
                    c.violated |= e.violated;
                    c.stripped += e.stripped;
                    c.rewrite |= e.rewrite;
                }
                c
            }
            (Kind::Object, ValueType::Object) => {
                let empty = FieldSet::default();
                let fields = rule.fields.as_ref().unwrap_or(&empty);
                self.check_members(fields, v, segs, out)
            }
            (kind, ty) => self.fail(
                segs,
                Rule::Type,
                format!(
                    "expected {}, found {}",
                    article(ty.as_str()),
                    article(kind_name(kind))
                ),
                out,
            ),
        }
    }

    fn fail(&self, segs: &[Seg], rule: Rule, msg: String, out: &mut Vec<Finding>) -> Checked {
        out.push(self.finding(segs, rule, msg));
        Checked {
            violated: true,
            stripped: 0,
            rewrite: false,
        }
    }

    /// Hold the number `n` (already converted) to `rule`'s bounds.
    pub fn range(&self, rule: &FieldRule, n: f64, segs: &[Seg], out: &mut Vec<Finding>) -> Checked {
        match rule.check_range(n) {
            Ok(()) => Checked::default(),
            Err(b) => self.fail(segs, b.rule(), b.message(), out),
        }
    }

    /// Check the members of a nested object: unknown ones are stripped,
    /// known ones checked, required ones present.
    pub fn check_members(
        &self,
        fields: &FieldSet,
        obj: usize,
        segs: &mut Vec<Seg>,
        out: &mut Vec<Finding>,
    ) -> Checked {
        let mut c = Checked::default();
        let mut seen = 0u64;
        for (k, v) in self.tape.members(obj) {
            let name = string_value(self.text, self.tok(k));
            segs.push(Seg::Key(k));
            match fields.lookup(&name) {
                Some((i, rule)) => {
                    if i < 64 {
                        seen |= 1 << i;
                    }
                    let e = self.check(rule, v, segs, out);
                    c.violated |= e.violated;
                    c.stripped += e.stripped;
                    c.rewrite |= e.rewrite;
                }
                None => {
                    out.push(self.finding(
                        segs,
                        Rule::UnknownField,
                        "field is not on the standard allowlist".into(),
                    ));
                    c.stripped += 1;
                }
            }
            segs.pop();
        }
        self.check_required(fields, seen, segs, out, &mut c);
        c
    }

    /// Report required fields missing from a bitmask of seen fields.
    pub fn check_required(
        &self,
        fields: &FieldSet,
        seen: u64,
        segs: &[Seg],
        out: &mut Vec<Finding>,
        c: &mut Checked,
    ) {
        for &i in fields.required() {
            if i < 64 && seen & (1 << i) == 0 {
                let mut path = self.path(segs);
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(fields.name(i));
                out.push(Finding {
                    line: self.line,
                    kind: FindingKind::Violation,
                    rule: Rule::Required,
                    field: Some(path),
                    message: "required field is missing".into(),
                });
                c.violated = true;
            }
        }
    }

    /// Append the projection of the (verified, unviolated) value at `v`:
    /// unknown object members are left out; everything else is written in
    /// canonical form (`record::canonical`), which is the line's own bytes
    /// wherever those are canonical.
    pub fn project(&self, rule: &FieldRule, v: usize, out: &mut Vec<u8>) {
        let t = self.tok(v);
        match (t.kind, rule.ty, rule.fields.as_ref(), rule.items.as_deref()) {
            (Kind::Object, ValueType::Object, Some(fields), _) => {
                self.project_members(fields, v, out)
            }
            (Kind::Array, ValueType::Array, _, Some(items)) => {
                out.push(b'[');
                for (i, el) in self.tape.elements(v).enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    self.project(items, el, out);
                }
                out.push(b']');
            }
            (Kind::Number, ValueType::Number, _, _) => {
                // SECURITY: a number that is no finite double broke its rule
                // and is never projected; `null` only guards a bug.
                if !canonical::write_double(raw(self.text, t), t.canonical, out) {
                    out.extend_from_slice(b"null");
                }
            }
            _ => canonical::write_scalar(self.text, t, out),
        }
    }

    /// Append `{...}` with only the allowlisted members of object `obj`.
    pub fn project_members(&self, fields: &FieldSet, obj: usize, out: &mut Vec<u8>) {
        out.push(b'{');
        let mut first = true;
        for (k, v) in self.tape.members(obj) {
            let name = string_value(self.text, self.tok(k));
            if let Some((_, rule)) = fields.lookup(&name) {
                if !first {
                    out.push(b',');
                }
                first = false;
                canonical::write_string(self.text, self.tok(k), out);
                out.push(b':');
                self.project(rule, v, out);
            }
        }
        out.push(b'}');
    }
}

/// The JSON type name of a token kind.
pub fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Object => "object",
        Kind::Array => "array",
        Kind::Key | Kind::String => "string",
        Kind::Number => "number",
        Kind::True | Kind::False => "boolean",
        Kind::Null => "null",
    }
}

fn article(word: &str) -> String {
    match word {
        "null" => "null".to_string(),
        w if w.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {w}"),
        w => format!("a {w}"),
    }
}
