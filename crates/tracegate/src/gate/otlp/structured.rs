//! Structured content at full level: a content attribute or log body whose
//! AnyValue is an `arrayValue` or `kvlistValue` (the GenAI conventions'
//! `gen_ai.input.messages` as an array of messages with parts; event bodies
//! as key-value lists).
//!
//! Inside a capture window the value is captured whole with its structure
//! kept, and every string in it, kvlist keys included, passes through the
//! sink's redactor ([`super::content::redact_content`]). Booleans pass in
//! canonical form; so do numbers, after the redactor has read their
//! decimal form as it reads a string ([`decimal_form`]): a number whose
//! decimal form it would change (`{"intValue":"4111111111111111"}`, a card)
//! goes out as a `stringValue` holding what the redactor made of that form
//! (`{"stringValue":"[REDACTED:credit_card]"}`), never as the number.
//! Anything else (a `bytesValue`, which no
//! redactor can read, a malformed AnyValue, nesting deeper than
//! `[server] max_nesting`, a `drop` rule or an exhausted redaction budget on
//! any string) drops the whole value with one finding: a structure is never
//! delivered with holes a reader cannot see. At standard level content is
//! stripped before this is reached.

use super::Judge;
use super::attrs::{Any, any_value};
use crate::finding::Rule;
use crate::otlp_schema::keys;
use crate::record::tape::Kind;

/// Why a structured value cannot be captured (the finding's rule and text;
/// never a value).
type Refusal = (Rule, &'static str);

const NOT_ANY: Refusal = (
    Rule::Type,
    "structured content holds a value that is not a valid AnyValue",
);
const BYTES: Refusal = (
    Rule::Type,
    "structured content holds a bytesValue, which cannot be redacted",
);
const TOO_DEEP: Refusal = (
    Rule::MaxNesting,
    "structured content is nested deeper than [server] max_nesting",
);

impl Judge<'_, '_> {
    /// Append the redacted projection of structured content `v` (an
    /// AnyValue object holding `arrayValue` or `kvlistValue`); `false`
    /// (nothing appended, one finding) when it cannot be captured whole.
    pub(super) fn structured_content(&mut self, v: usize) -> bool {
        let mark = self.out.len();
        let findings = self.findings.len();
        let flags = (self.redacted, self.excused, self.stripped);
        match self.any_content(v, 0) {
            Ok(()) => {
                // Verbatim only when every byte was written as it came.
                let raw = self.raw(v).as_bytes();
                if self.out.get(mark..) != Some(raw) {
                    self.recanon = true;
                }
                true
            }
            Err((rule, message)) => {
                // SECURITY: nothing of a refused structure goes out; the
                // findings of its strings give way to one for the value.
                self.out.truncate(mark);
                self.findings.truncate(findings);
                (self.redacted, self.excused, self.stripped) = flags;
                self.strip(rule, message);
                false
            }
        }
    }

    /// One AnyValue inside structured content, `depth` levels down.
    fn any_content(&mut self, v: usize, depth: usize) -> Result<(), Refusal> {
        let any = any_value(&self.walk, v).map_err(|_| NOT_ANY)?;
        match any {
            Any::Empty => self.out.extend_from_slice(b"{}"),
            Any::String(s) => {
                let findings = self.findings.len();
                if !self.content_string(s) {
                    // content_string reported why; the caller reports once.
                    let rule = self.findings.get(findings).map(|f| f.rule);
                    return Err(match rule {
                        Some(Rule::RedactBudget) => (
                            Rule::RedactBudget,
                            "redaction of this content ran out of its work budget; the content is removed",
                        ),
                        _ => (
                            Rule::RedactDrop,
                            "a redaction rule with action `drop` matched; the content is removed",
                        ),
                    });
                }
            }
            Any::Int(t) | Any::Double(t) | Any::Bool(t) => {
                let name = match any {
                    Any::Int(_) => keys::INT,
                    Any::Double(_) => keys::DOUBLE,
                    _ => keys::BOOL,
                };
                self.scalar(name, any, t)?;
            }
            Any::Nested => self.nested(v, depth)?,
        }
        Ok(())
    }

    /// `{"intValue":...}` and its siblings, checked and canonical; a
    /// number that the redactor would change goes out as the string it
    /// made of its decimal form.
    fn scalar(&mut self, name: &str, any: Any, t: usize) -> Result<(), Refusal> {
        let tok = self.tok(t);
        let number = match any {
            Any::Int(_) => {
                let text = match tok.kind {
                    Kind::String => self.decoded(t),
                    _ => std::borrow::Cow::Borrowed(self.raw(t)),
                };
                Some(decimal_form(any, &text).ok_or(NOT_ANY)?)
            }
            Any::Double(_) => Some(decimal_form(any, self.raw(t)).ok_or(NOT_ANY)?),
            _ => None,
        };
        if let Some(decimal) = number {
            // SECURITY: the digit detectors read a number as the text a
            // reader would write it as: a card, an SSN or a phone number
            // held as an intValue or doubleValue in captured structure is
            // masked as it would be in a string. What goes out is the
            // redactor's text, as a string: a masked number has no
            // number left to write.
            self.scratch.text.clear();
            if let Some(why) =
                super::content::redact_content(self.redactor, &decimal, &mut self.scratch.text)
            {
                return Err(why);
            }
            if self.scratch.text != decimal {
                self.redacted = true;
                self.out.extend_from_slice(b"{\"stringValue\":");
                crate::record::escape::write_json_string(&self.scratch.text, self.out);
                self.out.push(b'}');
                return Ok(());
            }
        }
        self.out.extend_from_slice(b"{\"");
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b"\":");
        self.write_any(any, t);
        self.out.push(b'}');
        Ok(())
    }

    /// An `arrayValue` or `kvlistValue` AnyValue at `v`.
    fn nested(&mut self, v: usize, depth: usize) -> Result<(), Refusal> {
        // SECURITY: bounded recursion: the same limit the receivers apply.
        if depth >= self.policy.server.structure.max_nesting {
            return Err(TOO_DEEP);
        }
        let (k, inner) = self.walk.tape.members(v).next().ok_or(NOT_ANY)?;
        let which = self.decoded(k);
        let kv = match &*which {
            keys::ARRAY => false,
            keys::KVLIST => true,
            keys::BYTES => return Err(BYTES),
            _ => return Err(NOT_ANY),
        };
        if self.tok(inner).kind != Kind::Object {
            return Err(NOT_ANY);
        }
        // `{"values":[...]}`, or `{}` (the protobuf default: empty).
        let mut members = self.walk.tape.members(inner);
        let values = match members.next() {
            None => None,
            Some((vk, arr))
                if self.decoded(vk) == keys::VALUES && self.tok(arr).kind == Kind::Array =>
            {
                Some(arr)
            }
            Some(_) => return Err(NOT_ANY),
        };
        if members.next().is_some() {
            return Err(NOT_ANY);
        }
        self.out.extend_from_slice(if kv {
            b"{\"kvlistValue\":{"
        } else {
            b"{\"arrayValue\":{"
        });
        if let Some(arr) = values {
            self.out.extend_from_slice(b"\"values\":[");
            for (i, el) in self.walk.tape.elements(arr).enumerate() {
                if i > 0 {
                    self.out.push(b',');
                }
                if kv {
                    self.key_value(el, depth)?;
                } else {
                    self.any_content(el, depth + 1)?;
                }
            }
            self.out.push(b']');
        }
        self.out.extend_from_slice(b"}}");
        Ok(())
    }

    /// One `{"key":K,"value":V}` of a kvlist: the key is redacted like any
    /// other string (a key can be a user's own word).
    fn key_value(&mut self, el: usize, depth: usize) -> Result<(), Refusal> {
        if self.tok(el).kind != Kind::Object {
            return Err(NOT_ANY);
        }
        let mut key = None;
        let mut value = None;
        for (k, v) in self.walk.tape.members(el) {
            match (&*self.decoded(k), self.tok(v).kind) {
                (keys::KEY, Kind::String) if key.is_none() => key = Some(v),
                (keys::VALUE, Kind::Object) if value.is_none() => value = Some(v),
                _ => return Err(NOT_ANY),
            }
        }
        let key = key.ok_or(NOT_ANY)?;
        self.out.extend_from_slice(b"{\"key\":");
        self.content_key(key)?;
        if let Some(v) = value {
            self.out.extend_from_slice(b",\"value\":");
            self.any_content(v, depth + 1)?;
        }
        self.out.push(b'}');
        Ok(())
    }

    /// A kvlist key inside content, redacted; written as a JSON string.
    ///
    /// (A key is not read as context for its value: `{"key":"ssn",
    /// "value":"078051120"}` is judged by the value alone, a string or a
    /// number alike.)
    fn content_key(&mut self, k: usize) -> Result<(), Refusal> {
        let decoded = self.decoded(k);
        self.scratch.text.clear();
        if let Some(why) =
            super::content::redact_content(self.redactor, &decoded, &mut self.scratch.text)
        {
            return Err(why);
        }
        if self.scratch.text == decoded {
            self.string(k);
        } else {
            self.redacted = true;
            crate::record::escape::write_json_string(&self.scratch.text, self.out);
        }
        Ok(())
    }
}

/// The decimal form of a number in content, as the redactor reads it: an
/// `intValue`'s `i64` in plain decimal (`-4111111111111111`), a
/// `doubleValue` written out without an exponent
/// (`4.111111111111111e15` and `4111111111111111.0` read
/// `4111111111111111`), so that no spelling of a number hides its digits.
/// Outside `1e-7..1e21` a double keeps its exponent (`4.1e25`): written
/// out it would be a run of 22 or more digits, or digits after a point,
/// neither of which any digit shape reads as its own (and a tiny double
/// would cost hundreds of zeros to scan). `None` for text that is no
/// `i64` (an `intValue`) or no finite double.
fn decimal_form(any: Any, text: &str) -> Option<String> {
    match any {
        Any::Int(_) => text.parse::<i64>().ok().map(|n| n.to_string()),
        Any::Double(_) => {
            let x = text.parse::<f64>().ok().filter(|x| x.is_finite())?;
            let plain = x == 0.0 || (1e-7..1e21).contains(&x.abs());
            Some(if plain {
                x.to_string()
            } else {
                format!("{x:e}")
            })
        }
        _ => None,
    }
}
