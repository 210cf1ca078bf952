//! The OTLP fast path: one pass over an export request's bytes, no tape.
//!
//! An SDK's export request is a tree of a few fixed messages (resources,
//! scopes, spans or log records) whose leaves are ids, timestamps, enums
//! and attribute lists. At standard level nearly every such request passes
//! as it is, or with its content attributes (`gen_ai.prompt`, ...) and
//! unknown attributes stripped. [`FastOtlp::judge`] walks the request's
//! bytes once, with the same [`Schema`] tables the full path reads, checks
//! every member as it meets it, and produces the same findings for those
//! two kinds of strip. On anything else (a violation, an escape where a
//! value is checked, a nested attribute value, a duplicate key, a member
//! it does not read, whitespace other than the canonical separators, a
//! syntax error) it gives up, forgets its findings, and the full path
//! judges the line and explains why.
//!
//! **Invariant:** when [`FastOtlp::judge`] answers, the full path
//! ([`super::judge`] on the tape) gives the same verdict, the same findings
//! in the same order, the same `stripped` count and the same `has_content`.
//! A property test (`fast_tests`) holds the two paths to that on generated
//! and mutated requests.
//!
//! It answers only at standard level, for a sink that pseudonymizes
//! nothing. When the caller wants a projection (`rebuild`) of a compact
//! line it strips members from, [`FastOtlp::project`] writes it: the line
//! without the stripped members and one separator each (what the full
//! path writes, byte for byte); a spaced line with strips goes to the full
//! path, which writes projections compact.

use super::attrs::{plain_decimal, unknown_message};
use super::schema::{FieldKind, Message, Place, Repeated, Structural, Text, text_ok};
use crate::finding::{Finding, FindingKind, Rule, escape_key_into, push_decimal};
use crate::gate::detect::Detectors;
use crate::gate::fast::{
    SPACED, UNSEEN, canonical_text, detectors_pass, next, number_ok, parse_u64, plain_string,
    plain_uint, rule_string, same, sep,
};
use crate::gate::memo::{MAX_BYTES, Memo};
use crate::otlp_schema::keys;
use crate::policy::content::is_content_attribute;
use crate::policy::{FieldRule, FieldSet, Policy, ValueType};
use crate::record::otlp_proto::push_double;
use crate::record::tape::{scan_number_shaped, scan_string};

/// The most attributes one list may hold for this path: keys are compared
/// pairwise for duplicates, so a longer list goes to the full path (which
/// sorts them).
const MAX_FAST_ATTRIBUTES: usize = 32;

/// One step of the path to the member being read, for findings.
#[derive(Debug, Clone, Copy)]
pub(super) enum Step {
    /// A member of a message (a schema name: plain ASCII, shown as is).
    Key(&'static str),
    /// An element of a repeated message.
    Index(usize),
}

/// Sets of the memo of passed values (a power of two; four values each).
const MEMO_SETS: usize = 128;

/// Buffers the fast path reuses from record to record, and what it learns.
///
/// It lives in a [`crate::gate::Gate`], which judges by one policy: what
/// the memo remembers (that a value passed its rule and the detectors
/// under that policy) stays true for the gate's life.
#[derive(Debug)]
pub struct FastOtlp {
    /// The path to the member being read.
    pub(super) path: Vec<Step>,
    /// Byte spans of the keys, not on the allowlist, of the attribute list
    /// being read.
    pub(super) keys: Vec<(usize, usize)>,
    /// Allowlist indexes seen in the attribute list being read, a bit each.
    pub(super) seen: Vec<u64>,
    /// Allowlist index guesses: the index of the attribute at each
    /// position of the last list at each place (producers keep an order).
    pub(super) guesses: [[u16; MAX_FAST_ATTRIBUTES]; 6],
    /// Strings that passed their rule and the detectors, tagged by rule
    /// and spread by hash. SECURITY: a hit needs the same rule and the
    /// same bytes.
    pub(super) memo: Memo,
    /// Where a finding's path is written before it is copied out.
    pub(super) scratch: String,
    /// Where the literal of a `doubleValue` off the wire is written.
    pub(super) number: Vec<u8>,
    /// The byte ranges of the members the last judged record stripped, in
    /// line order (its projection is the line without them).
    pub(super) cuts: Vec<(usize, usize)>,
}

impl Default for FastOtlp {
    fn default() -> Self {
        FastOtlp {
            path: Vec::new(),
            keys: Vec::new(),
            seen: Vec::new(),
            guesses: [[0; MAX_FAST_ATTRIBUTES]; 6],
            memo: Memo::new(MEMO_SETS, MAX_BYTES),
            scratch: String::new(),
            number: Vec::new(),
            cuts: Vec::new(),
        }
    }
}

/// The memo tag of a structural string rule (attribute rules are tagged
/// by place and allowlist index, below `1 << 24`).
const TAG_SPAN_NAME: u32 = 1 << 24;
/// The memo tag of "this key is a content attribute"
/// (`[full] content_attributes`, a list of patterns matched one by one).
const TAG_CONTENT_KEY: u32 = (1 << 24) + 1;
/// The memo tag of "this key is not a content attribute".
const TAG_PLAIN_KEY: u32 = (1 << 24) + 2;

/// What the fast path decided for a record it judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Taken {
    /// Members stripped (each with a finding); zero means verbatim.
    pub stripped: u32,
    /// The record holds content attributes or log bodies.
    pub has_content: bool,
    /// Spans and log records in the request.
    pub items: u32,
}

/// What the fast path reads besides the line.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The standard level's detectors.
    pub detectors: &'a Detectors,
    /// The line number, for findings.
    pub line: u64,
    /// The caller needs a projection: [`FastOtlp::project`] writes it
    /// from the ranges of the stripped members (for a compact line; a
    /// spaced one with strips goes to the full path, which writes its
    /// projection compact).
    pub project: bool,
    /// The caller reads findings: with `false`, a stripped member is
    /// counted but no finding (path, message) is written for it.
    pub findings: bool,
    /// The caller reads a stripped member's finding for more than its
    /// rule: with `false` (and `findings` on), each strip still pushes its
    /// finding (line, kind, rule) but with no path and an empty message,
    /// so nothing is built or allocated for it (`serve` counts strips by
    /// rule and logs paths only of what it drops).
    pub paths: bool,
}

impl FastOtlp {
    /// Judge the OTLP request `b` at standard level, pushing findings onto
    /// `findings`; `None` (with `findings` as it was) when the full path
    /// must judge it.
    pub fn judge(
        &mut self,
        cx: Context<'_>,
        b: &[u8],
        findings: &mut Vec<Finding>,
    ) -> Option<Taken> {
        let base = findings.len();
        let mut w = self.walker(cx, b, findings);
        let taken = w.request().map(|()| Taken {
            stripped: w.stripped,
            has_content: w.has_content,
            items: w.items,
        });
        // The full path writes a projection compact: a spaced line
        // with strips is left to it (one with none goes out as it is).
        // So does an attribute written value first: the full path
        // writes `key` first.
        let taken = taken
            .filter(|t| !(cx.project && t.stripped > 0 && (w.style == SPACED || w.value_first)));
        if taken.is_none() {
            findings.truncate(base);
        }
        taken
    }

    /// A walker over `b` (a line, or a protobuf request for the wire
    /// judge) with this path's buffers, its path and cuts cleared.
    pub(super) fn walker<'a, 'b>(
        &'b mut self,
        cx: Context<'a>,
        b: &'a [u8],
        findings: &'b mut Vec<Finding>,
    ) -> Walker<'a, 'b> {
        self.path.clear();
        self.cuts.clear();
        Walker {
            b,
            cx,
            style: UNSEEN,
            path: &mut self.path,
            keys: &mut self.keys,
            seen: &mut self.seen,
            guesses: &mut self.guesses,
            memo: &mut self.memo,
            scratch: &mut self.scratch,
            number: &mut self.number,
            cuts: &mut self.cuts,
            member_start: 0,
            value_first: false,
            findings,
            stripped: 0,
            has_content: false,
            items: 0,
        }
    }

    /// The byte ranges of the members the last judged line stripped, in
    /// line order (with [`Context::project`]; empty otherwise).
    pub fn cuts(&self) -> &[(usize, usize)] {
        &self.cuts
    }

    /// The projection of `b`, the line [`FastOtlp::judge`] last answered
    /// for, into `out` (cleared first): the line without the members it
    /// stripped, each taken out with one separator next to it, so what is
    /// left is in the line's own style. The full path writes the same
    /// bytes (held by `fast_tests`).
    pub fn project(&self, b: &[u8], out: &mut Vec<u8>) {
        out.clear();
        let mut at = 0;
        for &(start, end) in &self.cuts {
            out.extend_from_slice(b.get(at..start).unwrap_or_default());
            at = end;
            if b.get(end) == Some(&b',') {
                // A sibling follows: take the separator after the member.
                at += 1;
                if b.get(at) == Some(&b' ') {
                    at += 1;
                }
            } else {
                // The last of its list: take the separator before it, if
                // a kept sibling precedes it.
                if out.ends_with(b" ") {
                    out.pop();
                }
                if out.ends_with(b",") {
                    out.pop();
                }
            }
        }
        out.extend_from_slice(b.get(at..).unwrap_or_default());
    }
}

/// The value of an AnyValue object, as the fast path reads it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Any<'a> {
    /// `{}` (or no `value` member).
    Empty,
    /// `stringValue`: its raw bytes and whether they hold escapes.
    Str(&'a [u8], bool),
    /// `boolValue`.
    Bool,
    /// `intValue` as a JSON string (raw, escape-free).
    IntText(&'a [u8]),
    /// `intValue` or `doubleValue` as a JSON number: the literal, whether
    /// it has a fraction, an exponent.
    Num(&'a [u8], bool, bool, bool),
    /// `intValue` off the protobuf wire (`super::wire`): the line says it
    /// as [`Any::IntText`], its decimal text.
    Int(i64),
    /// A finite `doubleValue` off the protobuf wire: the line says it as
    /// [`Any::Num`], the literal `push_double` writes.
    Double(f64),
}

/// One walk over one line (or, for `super::wire`, one protobuf request:
/// then `b` is the request and every offset is into it).
pub(super) struct Walker<'a, 'b> {
    pub(super) b: &'a [u8],
    pub(super) cx: Context<'a>,
    /// The whitespace style of the separators (`gate::fast::sep`).
    pub(super) style: u8,
    pub(super) path: &'b mut Vec<Step>,
    pub(super) keys: &'b mut Vec<(usize, usize)>,
    pub(super) seen: &'b mut Vec<u64>,
    pub(super) guesses: &'b mut [[u16; MAX_FAST_ATTRIBUTES]; 6],
    pub(super) memo: &'b mut Memo,
    pub(super) scratch: &'b mut String,
    pub(super) number: &'b mut Vec<u8>,
    pub(super) cuts: &'b mut Vec<(usize, usize)>,
    /// Where the member being read starts (its key's quote).
    pub(super) member_start: usize,
    /// An attribute was written `value` first.
    pub(super) value_first: bool,
    pub(super) findings: &'b mut Vec<Finding>,
    pub(super) stripped: u32,
    pub(super) has_content: bool,
    /// Spans and log records read.
    pub(super) items: u32,
}

impl<'a> Walker<'a, '_> {
    /// The whole line: a request object with `resourceSpans` or
    /// `resourceLogs` (what `record::detect` calls OTLP), nothing after it.
    fn request(&mut self) -> Option<()> {
        if self.b.first() != Some(&b'{') {
            return None;
        }
        let (end, seen) = self.object(&super::schema::REQUEST, 0)?;
        // One signal per request: a line holding both lists is not an
        // export request (`shape`), which the full path says.
        (end == self.b.len() && seen.count_ones() == 1).then_some(())
    }

    /// The schema member whose key's quote is at `i`, and the offset of
    /// its value. A schema name is plain ASCII (no quote, backslash or
    /// control byte), so its bytes followed by `"` are exactly what a JSON
    /// string scan would find: no scan is needed.
    #[inline(always)]
    fn schema_key(
        &mut self,
        schema: &'static Message,
        i: usize,
    ) -> Option<(usize, &'static str, FieldKind, usize)> {
        if self.b.get(i) != Some(&b'"') {
            return None;
        }
        let rest = self.b.get(i + 1..)?;
        let (idx, field) = schema.fields.iter().enumerate().find(|(_, f)| {
            let k = f.key;
            rest.len() > k.len() && rest[k.len()] == b'"' && same(&rest[..k.len()], k.as_bytes())
        })?;
        let (name, field) = (field.key, field.kind);
        let end = i + 1 + name.len() + 1;
        if self.b.get(end) != Some(&b':') {
            return None;
        }
        Some((idx, name, field, sep(self.b, end + 1, &mut self.style)?))
    }

    /// The fixed key `name` (plain ASCII) with its quote at `i`: the offset
    /// of its value, or `None` when another key is there.
    #[inline(always)]
    fn fixed_key(&mut self, name: &[u8], i: usize) -> Option<usize> {
        let n = name.len();
        let here = self.b.get(i..i + n + 3)?;
        if here[0] != b'"'
            || !same(&here[1..=n], name)
            || here[n + 1] != b'"'
            || here[n + 2] != b':'
        {
            return None;
        }
        sep(self.b, i + n + 3, &mut self.style)
    }

    /// The message object at `i` (its `{`) under `schema`: the offset after
    /// it and the set of members seen (bit per schema entry).
    fn object(&mut self, schema: &'static Message, i: usize) -> Option<(usize, u32)> {
        if self.b.get(i) != Some(&b'{') {
            return None;
        }
        let mut i = i + 1;
        let mut seen = 0u32;
        if self.b.get(i) == Some(&b'}') {
            return Some((i + 1, 0));
        }
        loop {
            // A member the schema does not list is a finding the full path
            // words; a member seen twice makes the line malformed.
            self.member_start = i;
            let (idx, static_name, field, at) = self.schema_key(schema, i)?;
            let bit = 1u32.checked_shl(idx as u32)?;
            if seen & bit != 0 {
                return None;
            }
            seen |= bit;
            self.path.push(Step::Key(static_name));
            let end = self.member(field, at)?;
            self.path.pop();
            match next(self.b, end, b'}', &mut self.style)? {
                Ok(n) => i = n,
                Err(after) => return Some((after, seen)),
            }
        }
    }

    /// One structural member's value at `i`; the offset after it.
    fn member(&mut self, field: FieldKind, i: usize) -> Option<usize> {
        match field {
            FieldKind::Hex(n) => {
                let (s, end) = plain_string(self.b, i)?;
                // SECURITY: uppercase digits are rewritten by the full path
                // (a bit no rule reads), so only lowercase ids pass here.
                let ok = s.is_empty()
                    || (s.len() == n && s.iter().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')));
                ok.then_some(end)
            }
            FieldKind::Nanos => self.uint(i).map(|(_, end)| end),
            FieldKind::Uint32 => {
                let (n, end) = self.uint(i)?;
                (n <= u64::from(u32::MAX)).then_some(end)
            }
            FieldKind::Flags(mask) => {
                let (n, end) = self.uint(i)?;
                flags_ok(mask, n).then_some(end)
            }
            FieldKind::Enum(names) => {
                // Enum names (strings) are rare in OTLP/JSON: the full path
                // reads them.
                if self.b.get(i) == Some(&b'"') {
                    return None;
                }
                let (n, end) = self.uint(i)?;
                enum_ok(names, n).then_some(end)
            }
            FieldKind::Text(Text::Empty) => {
                (self.b.get(i..i + 2) == Some(b"\"\"")).then_some(i + 2)
            }
            FieldKind::Text(rule) => {
                let (s, end) = plain_string(self.b, i)?;
                text_ok(rule, std::str::from_utf8(s).ok()?).then_some(end)
            }
            FieldKind::Rule(which) => {
                let (s, end) = plain_string(self.b, i)?;
                self.structural_ok(which, s).then_some(end)
            }
            // A non-empty trace state is read member by member on the full
            // path.
            FieldKind::TraceState => (self.b.get(i..i + 2) == Some(b"\"\"")).then_some(i + 2),
            FieldKind::SpanName => {
                let (s, end) = plain_string(self.b, i)?;
                self.span_name_ok(s).then_some(end)
            }
            FieldKind::Attributes(place) => self.attributes(place, i),
            FieldKind::Body => {
                // A log body is content: stripped at standard level,
                // whatever it holds (but it must be a valid value).
                let (_, end) = self.any_value(i)?;
                self.body((self.member_start, end));
                Some(end)
            }
            FieldKind::Object(schema) => self.object(schema, i).map(|(end, _)| end),
            FieldKind::Array(schema, repeated) => self.array(schema, repeated, i),
            // The attribute and value messages' kinds: the attribute judge
            // reads those, never this walk. The full path decides.
            FieldKind::Key
            | FieldKind::Value
            | FieldKind::Values
            | FieldKind::Pairs
            | FieldKind::Case(_) => None,
        }
    }

    /// Whether a non-empty structural string `s` (a schema URL, a scope's
    /// name or version, an event name) passes its `[standard.otlp]` rule;
    /// an empty one always passes.
    #[inline(always)]
    pub(super) fn structural_ok(&self, which: Structural, s: &[u8]) -> bool {
        if s.is_empty() {
            return true;
        }
        let st = &self.cx.policy.standard.otlp.structure;
        let rule = match which {
            Structural::SchemaUrl => &st.schema_url,
            Structural::ScopeName => &st.scope_name,
            Structural::ScopeVersion => &st.scope_version,
            Structural::EventName => &st.event_name,
        };
        rule_string(rule, self.cx.detectors, s)
    }

    /// Whether the span name `s` (as the line says it, escape-free) is
    /// one of `span_names` or passes the span name rule.
    #[inline(always)]
    pub(super) fn span_name_ok(&mut self, s: &[u8]) -> bool {
        if !canonical_text(s) {
            return false;
        }
        let (otlp, detectors) = (&self.cx.policy.standard.otlp, self.cx.detectors);
        let named = || {
            otlp.span_names.iter().any(|n| n.as_bytes() == s)
                || rule_string(&otlp.structure.span_name, detectors, s)
        };
        self.memo.pass(TAG_SPAN_NAME, s, named)
    }

    /// A log body (the bytes `cut`, key and all) stripped as content.
    pub(super) fn body(&mut self, cut: (usize, usize)) {
        self.has_content = true;
        self.strip(
            cut,
            None,
            Rule::ContentField,
            "log body is content, not allowed at standard level",
        );
    }

    /// The most attributes one list may hold on this path.
    pub(super) fn attribute_max(&self) -> usize {
        let limits = &self.cx.policy.standard.otlp.limits;
        limits.attributes.min(MAX_FAST_ATTRIBUTES)
    }

    /// An unsigned integer at `i` in its one decimal spelling (no leading
    /// zero), as a JSON string of digits or a JSON number of at most 17
    /// digits: its value and the offset after it.
    fn uint(&self, i: usize) -> Option<(u64, usize)> {
        if self.b.get(i) != Some(&b'"') {
            return plain_uint(self.b, i).map(|(end, n)| (n, end));
        }
        let (digits, end) = plain_string(self.b, i)?;
        let n = parse_u64(digits).filter(|_| digits.len() == 1 || digits[0] != b'0')?;
        Some((n, end))
    }

    /// The elements of the array at `i` (its `[`), at most `max` (one more
    /// is a violation), each read by `element` from its index and offset;
    /// the offset after the array.
    fn elements(
        &mut self,
        i: usize,
        max: usize,
        mut element: impl FnMut(&mut Self, usize, usize) -> Option<usize>,
    ) -> Option<usize> {
        if self.b.get(i) != Some(&b'[') {
            return None;
        }
        let mut i = i + 1;
        if self.b.get(i) == Some(&b']') {
            return Some(i + 1);
        }
        let mut n = 0;
        loop {
            if n >= max {
                return None;
            }
            let end = element(self, n, i)?;
            n += 1;
            match next(self.b, end, b']', &mut self.style)? {
                Ok(next) => i = next,
                Err(after) => return Some(after),
            }
        }
    }

    /// A repeated message at `i` (its `[`), at most its `max_*` elements.
    fn array(&mut self, schema: &'static Message, repeated: Repeated, i: usize) -> Option<usize> {
        self.elements(i, super::limit(self.cx.policy, repeated), |w, n, i| {
            w.path.push(Step::Index(n));
            let (end, _) = w.object(schema, i)?;
            w.path.pop();
            if schema.is_item() {
                w.items = w.items.saturating_add(1);
            }
            Some(end)
        })
    }

    /// An attribute list at `i` (its `[`) for `place`.
    fn attributes(&mut self, place: Place, i: usize) -> Option<usize> {
        let max = self.attribute_max();
        self.keys.clear();
        self.seen.clear();
        self.elements(i, max, |w, n, i| w.attribute(place, n, i))
    }

    /// One attribute `{"key": K, "value": V}` at `i`, the `at`-th of its
    /// list; the offset after it.
    fn attribute(&mut self, place: Place, at: usize, i: usize) -> Option<usize> {
        if self.b.get(i) != Some(&b'{') {
            return None;
        }
        let start = i;
        let mut i = i + 1;
        let mut key: Option<(usize, usize)> = None;
        let mut value: Option<Any<'a>> = None;
        let end = loop {
            // Key first, as producers write it; else value first.
            let after = if key.is_none()
                && let Some(v) = self.fixed_key(keys::KEY.as_bytes(), i)
            {
                let (_, end) = plain_string(self.b, v)?;
                key = Some((v + 1, end - 1));
                end
            } else if value.is_none()
                && let Some(v) = self.fixed_key(keys::VALUE.as_bytes(), i)
            {
                let (any, end) = self.any_value(v)?;
                self.value_first |= key.is_none();
                value = Some(any);
                end
            } else {
                // Another member, or one twice: the full path.
                return None;
            };
            match next(self.b, after, b'}', &mut self.style)? {
                Ok(n) => i = n,
                Err(after) => break after,
            }
        };
        let any = value.unwrap_or(Any::Empty);
        self.judged_attribute(place, at, key?, any, (start, end))?;
        Some(end)
    }

    /// The attribute whose key is `b[ks..ke]` (escape-free) and whose value
    /// is `any`, the `at`-th of its list at `place`, taking up the bytes
    /// `cut`: checked against the allowlist (and kept), or stripped as
    /// content or unknown; `None` sends the record to the full path.
    #[inline(always)]
    pub(super) fn judged_attribute(
        &mut self,
        place: Place,
        at: usize,
        (ks, ke): (usize, usize),
        any: Any<'_>,
        (start, end): (usize, usize),
    ) -> Option<()> {
        let k = self.b.get(ks..ke)?;
        if !canonical_text(k) {
            return None;
        }
        let o = &self.cx.policy.standard.otlp;
        let (set, p) = match place {
            Place::Resource => (&o.resource_attributes, 0),
            Place::Scope => (&o.scope_attributes, 1),
            Place::Span => (&o.span_attributes, 2),
            Place::Event => (&o.event_attributes, 3),
            Place::Link => (&o.link_attributes, 4),
            Place::Log => (&o.log_attributes, 5),
        };
        let guess = self.guesses[p].get(at).copied().unwrap_or(0);
        if let Some((idx, rule)) = set.lookup_guessed(k, usize::from(guess)) {
            if let Some(g) = self.guesses[p].get_mut(at) {
                *g = u16::try_from(idx).ok()?;
            }
            // SECURITY: the same key twice in one list is malformed; the
            // full path reports it. Equal keys have equal indexes.
            let (word, bit) = (idx / 64, 1u64 << (idx % 64));
            if self.seen.len() <= word {
                self.seen.resize(word + 1, 0);
            }
            if self.seen[word] & bit != 0 {
                return None;
            }
            self.seen[word] |= bit;
            let tag = (p as u32) << 16 | u32::from(u16::try_from(idx).ok()?);
            return self.allowed(set, idx, rule, any, tag).then_some(());
        }
        // Keys off the allowlist: compared with each other.
        if self
            .keys
            .iter()
            .any(|&(s, e)| e - s == k.len() && self.b.get(s..e) == Some(k))
        {
            return None;
        }
        self.keys.push((ks, ke));
        // Remembered either way: keys repeat in every span of a batch.
        let content = if self.memo.pass(TAG_PLAIN_KEY, k, || false) {
            false
        } else {
            // The key is UTF-8 (`canonical_text` above).
            let patterns = &self.cx.policy.full.content_attributes;
            let content = self.memo.pass(TAG_CONTENT_KEY, k, || {
                std::str::from_utf8(k).is_ok_and(|key| is_content_attribute(patterns, key))
            });
            if !content {
                self.memo.pass(TAG_PLAIN_KEY, k, || true);
            }
            content
        };
        if content {
            self.has_content = true;
            self.strip(
                (start, end),
                Some(k),
                Rule::ContentField,
                "content attribute is not allowed at standard level",
            );
        } else {
            self.strip(
                (start, end),
                Some(k),
                Rule::UnknownField,
                unknown_message(place),
            );
        }
        Some(())
    }

    /// An AnyValue object at `i` holding a scalar (or nothing); the offset
    /// after it. Nested values go to the full path.
    fn any_value(&mut self, i: usize) -> Option<(Any<'a>, usize)> {
        if self.b.get(i) != Some(&b'{') {
            return None;
        }
        if self.b.get(i + 1) == Some(&b'}') {
            return Some((Any::Empty, i + 2));
        }
        let b = self.b;
        let (any, end) = if let Some(at) = self.fixed_key(keys::STRING.as_bytes(), i + 1) {
            if b.get(at) != Some(&b'"') {
                return None;
            }
            let (end, escaped) = scan_string(b, at).ok()?;
            let s = b.get(at + 1..end - 1)?;
            // SECURITY: a line that is not UTF-8 is malformed, content or
            // not.
            if !s.is_ascii() && simdutf8::basic::from_utf8(s).is_err() {
                return None;
            }
            (Any::Str(s, escaped), end)
        } else if let Some(at) = self.fixed_key(keys::INT.as_bytes(), i + 1) {
            match b.get(at)? {
                b'"' => {
                    let (s, end) = plain_string(self.b, at)?;
                    (Any::IntText(s), end)
                }
                _ => self.number(at, true)?,
            }
        } else if let Some(at) = self.fixed_key(keys::DOUBLE.as_bytes(), i + 1) {
            self.number(at, false)?
        } else if let Some(at) = self.fixed_key(keys::BOOL.as_bytes(), i + 1) {
            if b.get(at..at + 4) == Some(b"true") {
                (Any::Bool, at + 4)
            } else if b.get(at..at + 5) == Some(b"false") {
                (Any::Bool, at + 5)
            } else {
                return None;
            }
        } else {
            return None;
        };
        // A second member is no AnyValue: the full path.
        (b.get(end) == Some(&b'}')).then_some((any, end + 1))
    }

    /// A JSON number at `i` as an `intValue` (`int`) or a `doubleValue`.
    fn number(&self, i: usize, int: bool) -> Option<(Any<'a>, usize)> {
        if !matches!(self.b.get(i)?, b'-' | b'0'..=b'9') {
            return None;
        }
        let (end, fraction, exponent) = scan_number_shaped(self.b, i).ok()?;
        Some((Any::Num(self.b.get(i..end)?, fraction, exponent, int), end))
    }

    /// Whether an allowlisted attribute's value passes its rule as it is
    /// (`Judge::check_any`); `false` sends the line to the full path.
    fn allowed(
        &mut self,
        set: &FieldSet,
        idx: usize,
        rule: &FieldRule,
        any: Any<'_>,
        tag: u32,
    ) -> bool {
        match (any, rule.ty) {
            (_, ValueType::Array) => false,
            (Any::Empty, ty) => rule.nullable || ty == ValueType::Null,
            (Any::Str(s, false), ValueType::String) => {
                let detectors = self.cx.detectors;
                self.memo.pass(tag, s, || {
                    canonical_text(s)
                        && set.string_ok(idx, s)
                        && detectors_pass(rule, detectors, s) == Some(true)
                })
            }
            (Any::Num(literal, fraction, exponent, false), ValueType::Number) => {
                number_ok(rule, literal, fraction, exponent)
            }
            (Any::Bool, ValueType::Boolean) => true,
            (Any::IntText(text), ValueType::Integer | ValueType::Number) => int_ok(rule, text),
            (Any::Num(literal, false, false, true), ValueType::Integer | ValueType::Number) => {
                literal.len() <= 17 && int_ok(rule, literal)
            }
            // The line holds its decimal text (`push_int64`): one spelling
            // of `n`, which `int_ok` reads back as `n` (held by
            // `wire_tests`).
            (Any::Int(n), ValueType::Integer | ValueType::Number) => {
                rule.check_range(n as f64).is_ok()
            }
            (Any::Double(d), ValueType::Number) => {
                // The literal the line holds (`push_double`), read as the
                // line's walk reads it.
                let literal = &mut *self.number;
                literal.clear();
                push_double(literal, d);
                matches!(literal.first(), Some(b'-' | b'0'..=b'9'))
                    && scan_number_shaped(literal, 0).is_ok_and(|(end, fraction, exponent)| {
                        end == literal.len() && number_ok(rule, literal, fraction, exponent)
                    })
            }
            _ => false,
        }
    }

    /// A member (the bytes `cut`) stripped with a finding at the current
    /// path (and, for an attribute, `["key"]` after it).
    pub(super) fn strip(
        &mut self,
        cut: (usize, usize),
        attr: Option<&[u8]>,
        rule: Rule,
        message: &'static str,
    ) {
        if self.cx.project {
            self.cuts.push(cut);
        }
        self.stripped += 1;
        if !self.cx.findings {
            return;
        }
        if !self.cx.paths {
            self.findings.push(Finding {
                line: self.cx.line,
                kind: FindingKind::Violation,
                rule,
                field: None,
                message: String::new(),
            });
            return;
        }
        // Built in the walker's buffer, then copied once at its size.
        let path = &mut *self.scratch;
        path.clear();
        for step in self.path.iter() {
            match *step {
                Step::Key(k) => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(k);
                }
                Step::Index(i) => {
                    path.push('[');
                    push_decimal(path, i as u64);
                    path.push(']');
                }
            }
        }
        if let Some(key) = attr.and_then(|k| std::str::from_utf8(k).ok()) {
            path.push_str("[\"");
            escape_key_into(path, key);
            path.push_str("\"]");
        }
        let path = path.as_str().to_owned();
        self.findings.push(Finding {
            line: self.cx.line,
            kind: FindingKind::Violation,
            rule,
            field: Some(path),
            message: message.into(),
        });
    }
}

/// Whether a span or link `flags` value `n` holds only the bits `mask`
/// lets through (others would be cleared: a rewrite).
pub(super) fn flags_ok(mask: u32, n: u64) -> bool {
    n <= u64::from(mask) && n & u64::from(mask) == n
}

/// Whether the enum number `n` names one of `names`.
pub(super) fn enum_ok(names: &[&str], n: u64) -> bool {
    n < names.len() as u64
}

/// An `intValue`'s text in its one decimal spelling, within `rule`'s range.
fn int_ok(rule: &FieldRule, text: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(text) else {
        return false;
    };
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || !plain_decimal(text) {
        return false;
    }
    text.parse::<i64>()
        .is_ok_and(|n| rule.check_range(n as f64).is_ok())
}
