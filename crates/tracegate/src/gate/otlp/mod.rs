//! Verification and projection of OTLP/JSON records on the tape.
//!
//! Three shapes are judged: an `ExportTraceServiceRequest`
//! (`resourceSpans`), an `ExportLogsServiceRequest` (`resourceLogs`), and
//! a bare span object. The structure (resources, scopes,
//! spans, ids, timestamps, kinds, statuses, events, links, log records) is
//! declared in [`schema`]; attributes are held to the policy's
//! `[standard.otlp]` allowlists by [`attrs`]; content attributes and log
//! bodies are recognised by [`content`].
//!
//! One pass over the tape checks every member and writes the projection at
//! the same time, copying only verified raw spans: each member is either
//! copied (after its check passed), rebuilt from verified parts, or left
//! out with a finding. Nothing is decoded into a `serde_json::Value`.
//!
//! **Invariant:** every member left out or changed draws a finding (or, for
//! redacted content, sets a flag), and a record is passed verbatim only when
//! neither happened. So the verbatim decision cannot disagree with the
//! projection.
//!
//! Levels: at standard, content attributes and log bodies are stripped
//! (`content_field`); at full they pass when they are strings (through
//! [`content::redact_content`]) and are stripped with a `type` finding
//! otherwise. Every other attribute and structural field is held to the
//! same rules at both levels.

pub mod attrs;
pub mod content;
pub(crate) mod fast;
pub mod schema;
pub mod shape;
mod structured;
pub mod wire;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod structure_tests;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod fast_tests;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod wire_tests;

use std::borrow::Cow;
use std::io::Write as _;

use crate::finding::{Finding, FindingKind, Rule};
use crate::gate::verify::{Seg, Walk};
use crate::gate::{Judgement, Verdict};
use crate::policy::{OnViolation, Policy};
use crate::record::Format;
use crate::record::canonical;
use crate::record::tape::{Kind, Tape, Token, raw, string_value};
use crate::window::Level;
use crate::window::budget::Units;
use schema::{FieldKind, Message, Repeated, Structural, Text};

/// What the OTLP judge reads: one scanned line and how to judge it.
#[derive(Clone, Copy)]
pub struct Input<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The scanned line's tape.
    pub tape: &'a Tape,
    /// The line's text.
    pub text: &'a str,
    /// The line number, for findings.
    pub line: u64,
    /// The level the sink receives.
    pub level: Level,
    /// The sink's redaction of full-level content, if any.
    pub redactor: Option<&'a crate::redact::Redactor>,
    /// The standard level's detectors, run over allowlisted strings.
    pub detectors: &'a crate::gate::detect::Detectors,
    /// The sink's pseudonyms: attribute keys and id names (`traceId`,
    /// `spanId`, `parentSpanId`) to rewrite, under this key.
    pub pseudonyms: Option<Pseudonyms<'a>>,
}

/// What a sink pseudonymizes in OTLP records, and how.
#[derive(Clone, Copy)]
pub struct Pseudonyms<'a> {
    /// The key.
    pub key: &'a crate::redact::RedactKey,
    /// Attribute keys and id names to rewrite.
    pub names: &'a [String],
    /// Prefixes a pseudonym keeps.
    pub prefixes: &'a [String],
}

/// Buffers the OTLP judge reuses from record to record, so a clean record
/// allocates nothing once they have grown.
#[derive(Default)]
pub struct Scratch {
    /// Key tokens of the attribute list being checked for duplicates.
    keys: Vec<usize>,
    /// Redaction output for one content string.
    text: String,
    /// At full level, how many budget units (and bytes) this record may
    /// carry; `None` is no limit (`check`, `redact`).
    allowance: Option<Units>,
    /// What the last OTLP record carried at full level.
    captured: Units,
    /// The allowance that would have admitted the first unit refused.
    short: Option<Units>,
    /// Ordinals (in walk order, from 0) of the spans and log records of the
    /// last OTLP request that were dropped on their own for a violation.
    rejected: Vec<u32>,
    /// How many spans and log records the last OTLP request held.
    items: u32,
    /// For each item a violation inside it dropped, in walk order: the
    /// range of the findings its judgement pushed. Kept when the whole
    /// record is dropped (unlike `rejected`), to explain each item.
    causes: Vec<(u32, u32)>,
}

/// The budget hook of the OTLP judge (capture windows): set before judging
/// a record at full level, read after.
impl super::Gate {
    /// Let the next OTLP records carry at most `allowance` at full level;
    /// spans and log records past it are judged at standard level. `None`
    /// lifts the limit.
    pub fn set_allowance(&mut self, allowance: Option<Units>) {
        self.otlp.allowance = allowance;
    }

    /// What the last OTLP record judged at full level carried in content
    /// units (zero for any other record).
    pub fn captured(&self) -> Units {
        self.otlp.captured
    }

    /// When the last OTLP record had units judged at standard level for
    /// want of allowance: the allowance that would have admitted the first.
    pub fn shortfall(&self) -> Option<Units> {
        self.otlp.short
    }

    /// The spans and log records of the last record that were dropped on
    /// their own for a violation (the rest of the request went through):
    /// their ordinals in the request, in walk order from 0. Empty for any
    /// other record, and when the whole record was dropped.
    pub fn rejected_items(&self) -> &[u32] {
        &self.otlp.rejected
    }

    /// How many spans and log records the last OTLP record held (zero for
    /// any other record).
    pub fn otlp_items(&self) -> u32 {
        self.otlp.items
    }

    /// The spans and log records of the last OTLP record that a violation
    /// inside them dropped, each as the findings that explain it, in walk
    /// order. Unlike [`Gate::rejected_items`](super::Gate::rejected_items), kept when every item was
    /// dropped and the record with them.
    pub fn item_drops(&self) -> impl Iterator<Item = &[Finding]> {
        self.item_drop_ranges()
            .iter()
            .filter_map(|&(a, b)| self.findings.get(a as usize..b as usize))
    }

    /// [`Gate::item_drops`](super::Gate::item_drops) as ranges of indexes into [`Gate::findings`](super::Gate::findings).
    pub fn item_drop_ranges(&self) -> &[(u32, u32)] {
        &self.otlp.causes
    }

    /// A fast path (the line's or the wire's) judged the last record:
    /// its judgement, the record's items counted.
    pub(crate) fn otlp_taken(&mut self, taken: fast::Taken) -> super::Judgement {
        self.otlp.begin();
        self.otlp.items = taken.items;
        super::Judgement {
            verdict: if taken.stripped == 0 {
                super::Verdict::Verbatim
            } else {
                super::Verdict::Rewritten
            },
            format: Some(crate::record::Format::Otlp),
            stripped: taken.stripped,
            has_content: taken.has_content,
        }
    }

    /// Forget what the last record's judgement left (called before each).
    pub(crate) fn reset_otlp(&mut self) {
        self.otlp.rejected.clear();
        self.otlp.causes.clear();
        self.otlp.items = 0;
    }
}

impl Scratch {
    /// Forget what the last record left, before judging the next.
    pub(crate) fn begin(&mut self) {
        self.captured = Units::default();
        self.short = None;
        self.rejected.clear();
        self.causes.clear();
        self.items = 0;
    }
}

// SECURITY: the buffers hold record text; Debug shows only sizes.
crate::io_text::debug_as!(
    Scratch,
    |this| "Scratch({} keys, {} bytes)",
    this.keys.len(),
    this.text.len()
);

/// Where the judge writes: findings, the projection and its reused buffers.
pub struct Buffers<'b> {
    /// Findings of the record.
    pub findings: &'b mut Vec<Finding>,
    /// The projection (left empty unless the verdict is
    /// [`Verdict::Rewritten`] and `rebuild`).
    pub out: &'b mut Vec<u8>,
    /// The path of the value being checked.
    pub segs: &'b mut Vec<Seg>,
    /// Reused scratch space.
    pub scratch: &'b mut Scratch,
}

/// Judge one OTLP line into `buffers`.
pub fn judge(input: Input<'_>, rebuild: bool, buffers: Buffers<'_>) -> Judgement {
    let Buffers {
        findings,
        out,
        segs,
        scratch,
    } = buffers;
    segs.clear();
    scratch.begin();
    let base = findings.len();
    let mut j = Judge {
        walk: Walk {
            text: input.text,
            tape: input.tape,
            line: input.line,
            detectors: input.detectors,
        },
        policy: input.policy,
        redactor: input.redactor,
        level: input.level,
        segs,
        findings,
        out,
        scratch,
        stripped: 0,
        violated: false,
        malformed: false,
        has_content: false,
        redacted: false,
        bare: false,
        base,
        unrecognisable: false,
        in_unit: false,
        excused: 0,
        recanon: false,
        pseudonyms: input.pseudonyms,
    };
    let top = if is_request(input.tape, input.text) {
        // SECURITY: a line that names an export request's list but is not
        // the shape of one is malformed for every sink, not a record with
        // members to strip (`{"resourceSpans": 5}` would go out as `{}`).
        if let Err(e) = shape::check_request(input.tape, input.text, None) {
            j.findings.push(Finding {
                line: input.line,
                kind: FindingKind::Malformed,
                rule: Rule::OtlpShape,
                field: (!e.path.is_empty()).then_some(e.path),
                message: format!("not an OTLP export request: {}", e.problem),
            });
            return Judgement {
                verdict: Verdict::Malformed,
                format: None,
                stripped: 0,
                has_content: false,
            };
        }
        &schema::REQUEST
    } else {
        j.bare = true;
        &schema::SPAN
    };
    j.object(top, 0);
    j.finish(rebuild)
}

/// A request has `resourceSpans` or `resourceLogs` at the top; anything
/// else detected as OTLP is a bare span.
fn is_request(tape: &Tape, text: &str) -> bool {
    tape.members(0).any(|(k, _)| {
        tape.tokens()
            .get(k)
            .is_some_and(|t| matches!(&*string_value(text, t), "resourceSpans" | "resourceLogs"))
    })
}

/// The state of one record's walk.
struct Judge<'a, 'b> {
    walk: Walk<'a>,
    policy: &'a Policy,
    redactor: Option<&'a crate::redact::Redactor>,
    level: Level,
    segs: &'b mut Vec<Seg>,
    findings: &'b mut Vec<Finding>,
    out: &'b mut Vec<u8>,
    /// Reused buffers.
    scratch: &'b mut Scratch,
    stripped: u32,
    /// A structural field or allowlisted attribute broke its rule.
    violated: bool,
    /// An attribute list holds a key twice.
    malformed: bool,
    has_content: bool,
    /// Redaction changed a content string.
    redacted: bool,
    /// The record is a bare span object.
    bare: bool,
    /// Findings already in the buffer before this record.
    base: usize,
    /// A bare span lost its `name` or `attributes`: its projection would no
    /// longer be recognised as OTLP.
    unrecognisable: bool,
    /// Inside a budget unit (units do not nest).
    in_unit: bool,
    /// Non-canonical content strings passed as written at full level
    /// (content is content, escapes included).
    excused: u32,
    /// A value met its rule but the projection writes it in another,
    /// canonical form (leading zeros, uppercase hex, digits a double cannot
    /// hold): the record cannot go out verbatim.
    recanon: bool,
    /// The sink's pseudonyms.
    pseudonyms: Option<Pseudonyms<'a>>,
}

impl<'a> Judge<'a, '_> {
    fn tok(&self, i: usize) -> Token {
        self.walk.tape.tokens()[i]
    }

    fn raw(&self, i: usize) -> &'a str {
        raw(self.walk.text, &self.walk.tape.tokens()[i])
    }

    fn decoded(&self, i: usize) -> Cow<'a, str> {
        string_value(self.walk.text, &self.walk.tape.tokens()[i])
    }

    /// Decide from what the walk saw.
    fn finish(self, rebuild: bool) -> Judgement {
        let judged = |verdict, stripped| Judgement {
            verdict,
            format: Some(Format::Otlp),
            stripped,
            has_content: self.has_content,
        };
        let keep_output = |out: &mut Vec<u8>, keep: bool| {
            if !keep {
                out.clear();
            }
        };
        if self.malformed {
            // SECURITY: a list with a key twice is malformed: nothing goes
            // out, and only the malformation is reported.
            let base = self.base;
            let mut i = 0;
            self.findings.retain(|f| {
                i += 1;
                i <= base || f.kind == FindingKind::Malformed
            });
            keep_output(self.out, false);
            return Judgement {
                format: None,
                ..judged(Verdict::Malformed, 0)
            };
        }
        // SECURITY: a projection must keep its format; a bare span without
        // `name` or `attributes` would be judged as a cf record downstream.
        let drop = self.policy.standard.on_violation == OnViolation::DropRecord;
        // A request whose every span and log record was dropped on its own
        // carries nothing: it is dropped whole, as before isolation.
        let emptied =
            self.scratch.items > 0 && self.scratch.rejected.len() == self.scratch.items as usize;
        if self.unrecognisable || (self.violated && drop) || emptied {
            self.scratch.rejected.clear();
            keep_output(self.out, false);
            return judged(Verdict::Dropped, 0);
        }
        // SECURITY: verbatim only when nothing was left out (every omission
        // draws a finding), no content string was changed by redaction, and
        // every byte is canonical (`record::canonical`).
        let tape = self.walk.tape;
        let canonical = tape.ws_canonical() && tape.noncanonical() == self.excused && !self.recanon;
        if self.findings.len() == self.base && !self.redacted && canonical {
            keep_output(self.out, false);
            return judged(Verdict::Verbatim, 0);
        }
        keep_output(self.out, rebuild);
        judged(Verdict::Rewritten, self.stripped)
    }

    /// A finding at the current path.
    fn report(&mut self, rule: Rule, message: &'static str) {
        let f = self.walk.finding(self.segs, rule, message.into());
        self.findings.push(f);
    }

    /// A removable member that is not allowed here (unknown or content).
    fn strip(&mut self, rule: Rule, message: &'static str) {
        self.report(rule, message);
        self.stripped += 1;
    }

    /// A structural field or allowlisted attribute broke its rule: report
    /// it and count it (the record is dropped or the member removed).
    fn violation(&mut self, rule: Rule, message: &'static str) -> bool {
        self.report(rule, message);
        self.note_violation();
        false
    }

    /// A violation already reported by [`Walk::check`].
    fn note_violation(&mut self) {
        self.violated = true;
        if self.policy.standard.on_violation == OnViolation::DropField {
            self.stripped += 1;
        }
    }

    /// Check the object at `obj` against `schema` and write its projection.
    fn object(&mut self, schema: &Message, obj: usize) {
        if self.level == Level::Full
            && !self.in_unit
            && schema.is_unit()
            && let Some(allowance) = self.scratch.allowance
        {
            self.unit(schema, obj, allowance);
            return;
        }
        self.object_fields(schema, obj);
    }

    /// One budget unit at full level: judged at full while it fits in the
    /// allowance, else rolled back and judged again at standard level, and
    /// so is every unit after it in the record.
    fn unit(&mut self, schema: &Message, obj: usize, allowance: Units) {
        let out = self.out.len();
        let findings = self.findings.len();
        let saved = (
            self.stripped,
            self.violated,
            self.malformed,
            self.redacted,
            self.unrecognisable,
        );
        let content_before = self.has_content;
        self.has_content = false;
        self.in_unit = true;
        self.object_fields(schema, obj);
        self.in_unit = false;
        let content = self.has_content;
        self.has_content |= content_before;
        if !content {
            return;
        }
        let bytes = (self.out.len() - out) as u64;
        let got = self.scratch.captured;
        let with = Units {
            records: got.records.saturating_add(1),
            bytes: got.bytes.saturating_add(bytes),
        };
        if with.fits(allowance) {
            self.scratch.captured = with;
            return;
        }
        // SECURITY: past the allowance no content may go out: forget what
        // this unit wrote and judge it (and every later unit) at standard.
        self.scratch.short.get_or_insert(with);
        self.out.truncate(out);
        self.findings.truncate(findings);
        (
            self.stripped,
            self.violated,
            self.malformed,
            self.redacted,
            self.unrecognisable,
        ) = saved;
        self.level = Level::Standard;
        self.object_fields(schema, obj);
    }

    fn object_fields(&mut self, schema: &Message, obj: usize) {
        self.out.push(b'{');
        let mut first = true;
        for (k, v) in self.walk.tape.members(obj) {
            let name = self.decoded(k);
            self.segs.push(Seg::Key(k));
            match schema.field(&name).map(|f| f.kind) {
                Some(field) => {
                    let mark = self.out.len();
                    if !first {
                        self.out.push(b',');
                    }
                    self.string(k);
                    self.out.push(b':');
                    if self.member(field, v) {
                        first = false;
                    } else {
                        self.out.truncate(mark);
                        self.unrecognisable |= self.bare
                            && self.segs.len() == 1
                            && matches!(field, FieldKind::SpanName | FieldKind::Attributes(_));
                    }
                }
                None => self.strip(Rule::UnknownField, "field is not part of the otlp schema"),
            }
            self.segs.pop();
        }
        self.out.push(b'}');
    }

    /// Check one structural member and append its projected value; `false`
    /// when it is left out (the finding is already pushed).
    fn member(&mut self, field: FieldKind, v: usize) -> bool {
        let t = self.tok(v);
        match field {
            FieldKind::Hex(n) => self.hex(n, v),
            FieldKind::Nanos => {
                self.unsigned(v, u64::MAX, "timestamp must be a u64 of nanoseconds")
            }
            FieldKind::Uint32 => self.unsigned(v, u64::from(u32::MAX), "value must be a u32"),
            FieldKind::Flags(mask) => self.flags(v, mask),
            FieldKind::Enum(names) => self.enumeration(names, v),
            FieldKind::Text(text) => self.text(text, v),
            FieldKind::Rule(which) => self.structural(which, v),
            FieldKind::TraceState => self.trace_state(v),
            FieldKind::SpanName => self.span_name(v),
            FieldKind::Attributes(place) if t.kind == Kind::Array => {
                if !self.within(v, self.policy.standard.otlp.limits.attributes) {
                    return false;
                }
                self.attributes(place, v);
                true
            }
            FieldKind::Body => self.body(v),
            FieldKind::Object(schema) if t.kind == Kind::Object => {
                self.object(schema, v);
                true
            }
            FieldKind::Array(schema, repeated) if t.kind == Kind::Array => {
                if !self.within(v, limit(self.policy, repeated)) {
                    return false;
                }
                self.array(schema, v);
                true
            }
            FieldKind::Attributes(_) | FieldKind::Array(..) => {
                self.violation(Rule::Type, "expected an array")
            }
            FieldKind::Object(_) => self.violation(Rule::Type, "expected an object"),
            // The attribute and value messages' kinds, which no message the
            // gate walks holds (the attribute judge reads those): fail
            // closed.
            FieldKind::Key
            | FieldKind::Value
            | FieldKind::Values
            | FieldKind::Pairs
            | FieldKind::Case(_) => self.violation(Rule::Type, "not a structural field"),
        }
    }

    /// Whether array `arr` has at most `max` elements; a `max_items`
    /// violation when not.
    fn within(&mut self, arr: usize, max: usize) -> bool {
        // SECURITY: every repeated structure is bounded, so no list can
        // be made a channel by its length or its thousandth element.
        if self.walk.tape.elements(arr).nth(max).is_some() {
            return self.violation(
                Rule::MaxItems,
                "array has more elements than its [standard.otlp] max_* limit",
            );
        }
        true
    }

    /// A `fixed32` bit field: only the bits in `mask` are defined; the
    /// others are cleared (a rewrite), never passed.
    fn flags(&mut self, v: usize, mask: u32) -> bool {
        let t = self.tok(v);
        let digits = match t.kind {
            Kind::Number => Cow::Borrowed(self.raw(v)),
            Kind::String => self.decoded(v),
            _ => return self.violation(Rule::Type, "flags must be a u32"),
        };
        let Some(n) = (digits.len() <= 10 && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse::<u32>().ok())
            .flatten()
        else {
            return self.violation(Rule::Range, "flags must be a u32");
        };
        let kept = n & mask;
        if kept == n && (digits.len() == 1 || !digits.starts_with('0')) {
            return self.copy(v);
        }
        // SECURITY: reserved bits (and leading zeros) carry data no rule
        // reads: write only the defined bits, in the same JSON kind.
        self.recanon = true;
        let quote = t.kind == Kind::String;
        if quote {
            self.out.push(b'"');
        }
        let _ = write!(self.out, "{kept}");
        if quote {
            self.out.push(b'"');
        }
        true
    }

    /// A structural string held to its `[standard.otlp]` rule (through
    /// [`Walk::check`]: pattern, `one_of`, `max_len`, detectors). The empty
    /// string, the protobuf default, always passes.
    fn structural(&mut self, which: Structural, v: usize) -> bool {
        let t = self.tok(v);
        if t.kind != Kind::String {
            return self.violation(Rule::Type, "expected a string");
        }
        if t.end - t.start == 2 {
            return self.copy(v);
        }
        let s = &self.policy.standard.otlp.structure;
        let rule = match which {
            Structural::SchemaUrl => &s.schema_url,
            Structural::ScopeName => &s.scope_name,
            Structural::ScopeVersion => &s.scope_version,
            Structural::EventName => &s.event_name,
        };
        let c = self.walk.check(rule, v, self.segs, self.findings);
        if c.violated {
            self.note_violation();
            return false;
        }
        self.copy(v)
    }

    /// A W3C trace state. SECURITY: its values are free text a vendor
    /// defines, so at standard level only members whose key is in
    /// `[standard.otlp.trace_state]` stay, each held to its value rule;
    /// every other member is stripped (with a finding).
    fn trace_state(&mut self, v: usize) -> bool {
        if self.tok(v).kind != Kind::String {
            return self.violation(Rule::Type, "trace state must be a string");
        }
        let s = self.decoded(v);
        if s.is_empty() {
            return self.copy(v);
        }
        if !schema::trace_state_ok(&s) {
            return self.violation(
                Rule::Pattern,
                "trace state must be a W3C key=value list without spaces in values",
            );
        }
        let allowed = &self.policy.standard.otlp.trace_state;
        let mut kept = String::new();
        let mut all = true;
        for (key, value) in schema::trace_state_members(&s) {
            let Some((_, rule)) = allowed.lookup(key) else {
                all = false;
                self.strip(
                    Rule::UnknownField,
                    "trace state member is not on the [standard.otlp.trace_state] allowlist",
                );
                continue;
            };
            let broken = match rule.check_string(value) {
                Err(b) => Some((b.rule(), b.message())),
                Ok(()) => rule
                    .one_of
                    .is_none()
                    .then(|| self.walk.detectors.hit(value))
                    .flatten()
                    .map(|hit| (hit, crate::gate::detect::message(hit))),
            };
            if let Some((rule, message)) = broken {
                let f = self.walk.finding(self.segs, rule, message);
                self.findings.push(f);
                self.note_violation();
                return false;
            }
            if !kept.is_empty() {
                kept.push(',');
            }
            kept.push_str(key);
            kept.push('=');
            kept.push_str(value);
        }
        if all && kept.len() == s.len() {
            return self.copy(v);
        }
        self.recanon = true;
        crate::record::escape::write_json_string(&kept, self.out);
        true
    }

    /// A repeated message: each element must be an object of `schema`.
    fn array(&mut self, schema: &Message, arr: usize) {
        self.out.push(b'[');
        let mut first = true;
        let items = schema.is_item();
        for (i, el) in self.walk.tape.elements(arr).enumerate() {
            self.segs.push(Seg::Index(i));
            let mark = self.out.len();
            if !first {
                self.out.push(b',');
            }
            let kept = if items {
                self.item(schema, el)
            } else if self.tok(el).kind == Kind::Object {
                self.object(schema, el);
                true
            } else {
                self.violation(Rule::Type, "expected an object")
            };
            if kept {
                first = false;
            } else {
                self.out.truncate(mark);
            }
            self.segs.pop();
        }
        self.out.push(b']');
    }

    /// One span or log record of a request, judged on its own: under
    /// `drop_record`, a violation inside it (its structure, attributes,
    /// events, links) drops this item alone and records its ordinal for
    /// `partialSuccess`; `false` when it was dropped.
    fn item(&mut self, schema: &Message, el: usize) -> bool {
        let ordinal = self.scratch.items;
        self.scratch.items = self.scratch.items.saturating_add(1);
        let first_finding = u32::try_from(self.findings.len()).unwrap_or(u32::MAX);
        let outer = std::mem::replace(&mut self.violated, false);
        // Nothing is written for an element that is not an object.
        let object = self.tok(el).kind == Kind::Object;
        if object {
            self.object(schema, el);
        } else {
            self.violation(Rule::Type, "expected an object");
        }
        let broke = std::mem::replace(&mut self.violated, outer);
        if !broke {
            return true;
        }
        if self.policy.standard.on_violation == OnViolation::DropField {
            // The violating members are already left out; the item stays
            // (if it is an item at all).
            self.violated = true;
            return object;
        }
        // SECURITY: the violation is attributed to this item alone: nothing
        // of it goes out (its findings, which name the rule and the path but
        // no value, stay); the record is still dropped whole for anything
        // outside an item (resource, scope, limits, malformation).
        self.scratch.rejected.push(ordinal);
        let end = u32::try_from(self.findings.len()).unwrap_or(u32::MAX);
        self.scratch.causes.push((first_finding, end));
        self.stripped += 1;
        false
    }

    /// Append verified scalar `v` in canonical form.
    fn copy(&mut self, v: usize) -> bool {
        canonical::write_scalar(self.walk.text, &self.walk.tape.tokens()[v], self.out);
        true
    }

    /// Append string or key token `s` in canonical form.
    fn string(&mut self, s: usize) {
        canonical::write_string(self.walk.text, &self.walk.tape.tokens()[s], self.out);
    }

    fn hex(&mut self, digits: usize, v: usize) -> bool {
        if self.tok(v).kind != Kind::String {
            return self.violation(Rule::Type, "id must be a hex string");
        }
        let s = self.decoded(v);
        if s.is_empty() || (s.len() == digits && s.bytes().all(|b| b.is_ascii_hexdigit())) {
            if !s.is_empty()
                && let Some(p) = self.pseudonyms
                && let Some(&Seg::Key(k)) = self.segs.last()
                && p.names.iter().any(|n| *n == self.decoded(k))
            {
                // SECURITY: a listed id goes out as a keyed pseudonym of the
                // same shape (lowercase hex of the same length).
                self.recanon = true;
                let lower = s.to_ascii_lowercase();
                let id = crate::redact::pseudonymize(p.key, &lower, p.prefixes);
                crate::record::escape::write_json_string(&id, self.out);
                return true;
            }
            if s.bytes().any(|b| b.is_ascii_uppercase()) {
                // SECURITY: the case of each hex digit is a bit no rule
                // reads; ids go out in lowercase (as OTLP/JSON writes them).
                self.recanon = true;
                self.out.push(b'"');
                self.out.extend(s.bytes().map(|b| b.to_ascii_lowercase()));
                self.out.push(b'"');
                return true;
            }
            return self.copy(v);
        }
        let message = if digits == 32 {
            "trace id must be 32 hex digits"
        } else {
            "span id must be 16 hex digits"
        };
        self.violation(Rule::Pattern, message)
    }

    /// An unsigned integer up to `max`: a JSON integer or a string of digits.
    fn unsigned(&mut self, v: usize, max: u64, message: &'static str) -> bool {
        let t = self.tok(v);
        let digits = match t.kind {
            Kind::Number => Cow::Borrowed(self.raw(v)),
            Kind::String => self.decoded(v),
            _ => return self.violation(Rule::Type, message),
        };
        let ok = !digits.is_empty()
            && digits.len() <= 20
            && digits.bytes().all(|b| b.is_ascii_digit())
            && digits.parse::<u64>().is_ok_and(|n| n <= max);
        if !ok {
            return self.violation(Rule::Range, message);
        }
        if digits.len() > 1 && digits.starts_with('0') {
            // SECURITY: leading zeros are a channel no rule reads; write
            // the number's one decimal spelling, in the same JSON kind.
            self.recanon = true;
            let n = digits.trim_start_matches('0');
            let n = if n.is_empty() { "0" } else { n };
            let quote = t.kind == Kind::String;
            if quote {
                self.out.push(b'"');
            }
            self.out.extend_from_slice(n.as_bytes());
            if quote {
                self.out.push(b'"');
            }
            return true;
        }
        self.copy(v)
    }

    fn enumeration(&mut self, names: &[&str], v: usize) -> bool {
        let t = self.tok(v);
        let ok = match t.kind {
            Kind::Number => self.raw(v).parse::<usize>().is_ok_and(|n| n < names.len()),
            Kind::String => {
                let s = self.decoded(v);
                names.contains(&s.as_ref())
            }
            _ => return self.violation(Rule::Type, "enum must be an integer or an enum name"),
        };
        if ok {
            self.copy(v)
        } else {
            self.violation(Rule::OneOf, "enum value is not one of the defined values")
        }
    }

    fn text(&mut self, rule: Text, v: usize) -> bool {
        if self.tok(v).kind != Kind::String {
            return self.violation(Rule::Type, "expected a string");
        }
        let s = self.decoded(v);
        if schema::text_ok(rule, &s) {
            self.copy(v)
        } else {
            self.violation(
                schema::text_rule_name(rule),
                schema::text_rule_message(rule),
            )
        }
    }

    fn span_name(&mut self, v: usize) -> bool {
        if self.tok(v).kind != Kind::String {
            return self.violation(Rule::Type, "span name must be a string");
        }
        let s = self.decoded(v);
        let policy = self.policy;
        let otlp = &policy.standard.otlp;
        if otlp.span_names.iter().any(|n| *n == s) {
            return self.copy(v);
        }
        // Else the `span_name` rule (the conventions' `{operation} {model}`
        // shape), with the detectors: a name is free text an SDK user sets.
        let rule = &otlp.structure.span_name;
        if rule.check_string(&s).is_err() {
            return self.violation(
                Rule::OneOf,
                "span name is neither in [standard.otlp] span_names nor of the span_name shape",
            );
        }
        let c = self.walk.check(rule, v, self.segs, self.findings);
        if c.violated {
            self.note_violation();
            return false;
        }
        self.copy(v)
    }

    /// A log body is content.
    fn body(&mut self, v: usize) -> bool {
        self.has_content = true;
        if self.level == Level::Standard {
            self.strip(
                Rule::ContentField,
                "log body is content, not allowed at standard level",
            );
            return false;
        }
        match attrs::any_value(&self.walk, v) {
            Ok(attrs::Any::String(s)) => self.content_string(s),
            // An event body as a kvlist (or array): captured whole, every
            // string redacted (`structured`).
            Ok(attrs::Any::Nested) => self.structured_content(v),
            _ => {
                // SECURITY: content at full level is text or a structure of
                // text; anything else is dropped.
                self.strip(
                    Rule::Type,
                    "log body must be a stringValue, arrayValue or kvlistValue to pass at full level",
                );
                false
            }
        }
    }

    /// Append `{"stringValue":...}` for a content string token `s`, after
    /// redaction; `false` (nothing appended, a finding) when a `drop` rule
    /// matched and the value must not pass.
    fn content_string(&mut self, s: usize) -> bool {
        let decoded = self.decoded(s);
        self.scratch.text.clear();
        if let Some((rule, message)) =
            content::redact_content(self.redactor, &decoded, &mut self.scratch.text)
        {
            // SECURITY: a `drop` rule matched or the redaction ran out of
            // budget: the value does not pass.
            self.strip(rule, message);
            return false;
        }
        self.out.extend_from_slice(b"{\"stringValue\":");
        if self.scratch.text == decoded {
            let t = self.tok(s);
            if self.walk.tape.separators() {
                // Output escapes raw U+2028/U+2029, content included.
                self.string(s);
            } else {
                if !t.canonical {
                    self.excused += 1;
                }
                self.out.extend_from_slice(self.raw(s).as_bytes());
            }
        } else {
            self.redacted = true;
            crate::record::escape::write_json_string(&self.scratch.text, self.out);
        }
        self.out.push(b'}');
        true
    }
}

/// The `[standard.otlp] max_*` limit of a repeated structure (the full
/// path's and the fast path's).
pub(super) fn limit(policy: &Policy, repeated: Repeated) -> usize {
    let l = &policy.standard.otlp.limits;
    match repeated {
        Repeated::Resources => l.resources,
        Repeated::Scopes => l.scopes,
        Repeated::Spans => l.spans,
        Repeated::Events => l.events,
        Repeated::Links => l.links,
        Repeated::LogRecords => l.log_records,
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use super::*;
    use crate::gate::Gate;
    use crate::source::lines::Line;

    const SEED_STANDARD: &str = r#"{"name": "llm_request", "kind": 1, "startTimeUnixNano": "1788450022633673216", "endTimeUnixNano": "1788450022799637248", "attributes": [{"key": "cf.request_id", "value": {"stringValue": "chatcmpl-b8af6f4d128fdd4c-b31b5b1f"}}, {"key": "gen_ai.usage.prompt_tokens", "value": {"intValue": "54"}}, {"key": "gen_ai.usage.completion_tokens", "value": {"intValue": "2"}}, {"key": "cf.e2e_latency_s", "value": {"doubleValue": 0.1659}}, {"key": "cf.queue_wait_s", "value": {"doubleValue": 0.0119}}, {"key": "cf.scheduler.family", "value": {"stringValue": "trace"}}]}"#;

    fn gate(extra: &str) -> Gate {
        let policy = Policy::from_toml(Path::new("p.toml"), extra).unwrap();
        Gate::new(Arc::new(policy))
    }

    fn run(g: &mut Gate, line: &str, level: Level) -> (Judgement, String, Vec<String>) {
        let j = g.judge(1, &Line::Text(line.as_bytes()), level, true);
        let out = String::from_utf8(g.output().to_vec()).unwrap();
        let f = g
            .findings()
            .iter()
            .map(|f| format!("{}@{}", f.rule, f.field.as_deref().unwrap_or("-")))
            .collect();
        (j, out, f)
    }

    #[test]
    fn seed_standard_span_passes_verbatim() {
        let mut g = gate("");
        let (j, out, f) = run(&mut g, SEED_STANDARD, Level::Standard);
        assert_eq!(j.verdict, Verdict::Verbatim, "{f:?}");
        assert_eq!(j.format, Some(Format::Otlp));
        assert!(out.is_empty());
        assert!(!j.has_content);
    }

    #[test]
    fn content_attribute_is_stripped_at_standard_and_kept_at_full() {
        let line = r#"{"name":"llm_request","attributes":[{"key":"cf.queue_wait_s","value":{"doubleValue":0.01}},{"key":"gen_ai.prompt","value":{"stringValue":"secret"}}]}"#;
        let mut g = gate("");
        let (j, out, f) = run(&mut g, line, Level::Standard);
        assert_eq!(j.verdict, Verdict::Rewritten);
        assert!(j.has_content);
        assert_eq!(j.stripped, 1);
        assert_eq!(
            out,
            r#"{"name":"llm_request","attributes":[{"key":"cf.queue_wait_s","value":{"doubleValue":0.01}}]}"#
        );
        assert_eq!(f, vec![r#"content_field@attributes["gen_ai.prompt"]"#]);
        let (j, _, f) = run(&mut g, line, Level::Full);
        assert_eq!(j.verdict, Verdict::Verbatim, "{f:?}");
        assert!(j.has_content);
    }

    #[test]
    fn paths_name_the_place_precisely() {
        let line = r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{},{"events":[{},{"name":"exception","attributes":[{"key":"gen_ai.prompt","value":{"stringValue":"x"}}]}]}]}]}]}"#;
        let mut g = gate("");
        let (j, out, f) = run(&mut g, line, Level::Standard);
        assert_eq!(j.verdict, Verdict::Rewritten);
        assert_eq!(
            f,
            vec![
                r#"content_field@resourceSpans[0].scopeSpans[0].spans[1].events[1].attributes["gen_ai.prompt"]"#
            ]
        );
        assert_eq!(
            out,
            r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{},{"events":[{},{"name":"exception","attributes":[]}]}]}]}]}"#
        );
    }

    #[test]
    fn violations_drop_the_record_or_the_field() {
        let line = r#"{"name":"llm_request","attributes":[{"key":"cf.request_id","value":{"stringValue":"a sentence"}},{"key":"cf.queue_wait_s","value":{"doubleValue":0.5}}]}"#;
        let mut g = gate("");
        let (j, out, f) = run(&mut g, line, Level::Standard);
        assert_eq!(j.verdict, Verdict::Dropped);
        assert!(out.is_empty());
        assert_eq!(f, vec![r#"pattern@attributes["cf.request_id"]"#]);
        let mut g = gate("[standard]\non_violation = \"drop_field\"\n");
        let (j, out, _) = run(&mut g, line, Level::Standard);
        assert_eq!(j.verdict, Verdict::Rewritten);
        assert_eq!(j.stripped, 1);
        assert_eq!(
            out,
            r#"{"name":"llm_request","attributes":[{"key":"cf.queue_wait_s","value":{"doubleValue":0.5}}]}"#
        );
    }

    #[test]
    fn attribute_types_map_to_rules() {
        let mut g = gate("[standard]\non_violation = \"drop_field\"\n");
        let cases = [
            (r#"{"intValue":"54"}"#, true),
            (r#"{"intValue":54}"#, true),
            (r#"{"intValue":"-1"}"#, false),
            (r#"{"intValue":"5.5"}"#, false),
            (r#"{"intValue":"99999999999999999999"}"#, false),
            (r#"{"doubleValue":54}"#, false),
            (r#"{"stringValue":"54"}"#, false),
            (r#"{"arrayValue":{"values":[{"intValue":"1"}]}}"#, false),
            (r#"{"kvlistValue":{"values":[]}}"#, false),
            (r#"{"bytesValue":"AAAA"}"#, false),
            (r#"{}"#, false),
            (r#"{"intValue":"1","stringValue":"x"}"#, false),
        ];
        for (value, ok) in cases {
            let line = format!(
                r#"{{"name":"llm_request","attributes":[{{"key":"gen_ai.usage.prompt_tokens","value":{value}}}]}}"#
            );
            let (j, _, f) = run(&mut g, &line, Level::Standard);
            let passed = j.verdict == Verdict::Verbatim;
            assert_eq!(passed, ok, "{value}: {f:?}");
        }
    }

    #[test]
    fn duplicate_attribute_key_is_malformed_even_when_escaped() {
        let line = r#"{"name":"llm_request","attributes":[{"key":"cf.queue_wait_s","value":{"doubleValue":0.5}},{"key":"cf.queue\u005fwait_s","value":{"doubleValue":1}}]}"#;
        let mut g = gate("");
        let (j, out, f) = run(&mut g, line, Level::Standard);
        assert_eq!(j.verdict, Verdict::Malformed);
        assert!(out.is_empty());
        assert_eq!(f, vec![r#"duplicate_key@attributes["cf.queue_wait_s"]"#]);
        assert_eq!(g.findings()[0].kind, FindingKind::Malformed);
    }

    #[test]
    fn duplicate_keys_in_nested_kvlists_are_malformed() {
        let mut g = gate("");
        let nested = r#"{"name":"llm_request","attributes":[{"key":"a","value":{"arrayValue":{"values":[{"kvlistValue":{"values":[{"key":"k","value":{"stringValue":"1"}},{"key":"k","value":{"stringValue":"2"}}]}}]}}}]}"#;
        let (j, out, f) = run(&mut g, nested, Level::Standard);
        assert_eq!(j.verdict, Verdict::Malformed);
        assert!(out.is_empty());
        assert_eq!(f, vec![r#"duplicate_key@attributes["k"]"#]);
        let distinct = nested.replacen(r#""key":"k""#, r#""key":"j""#, 1);
        let (j, _, f) = run(&mut g, &distinct, Level::Standard);
        assert_eq!(j.verdict, Verdict::Rewritten);
        assert_eq!(f, vec![r#"unknown_field@attributes["a"]"#]);
    }

    #[test]
    fn structural_fields_are_checked() {
        let mut g = gate("[standard]\non_violation = \"drop_field\"\n");
        let cases = [
            (r#""traceId":"5b8efff798038103d269b633813fc60c""#, true),
            (r#""traceId":"""#, true),
            (r#""traceId":"5b8e""#, false),
            (r#""spanId":"eee19b7ec3c1b174""#, true),
            (r#""spanId":"zzzzzzzzzzzzzzzz""#, false),
            (r#""startTimeUnixNano":"1544712660000000000""#, true),
            (r#""startTimeUnixNano":1544712660000000000"#, true),
            (r#""startTimeUnixNano":"-1""#, false),
            (r#""startTimeUnixNano":"99999999999999999999""#, false),
            (r#""kind":2"#, true),
            (r#""kind":"SPAN_KIND_SERVER""#, true),
            (r#""kind":6"#, false),
            (r#""kind":"server""#, false),
            (r#""status":{"code":2,"message":""}"#, true),
            (r#""status":{"message":"boom"}"#, false),
            // Stripped at standard unless [standard.otlp.trace_state] lists it.
            (r#""traceState":"rojo=00f067aa0ba902b7""#, false),
            (r#""traceState":"rojo=a b""#, false),
            (r#""flags":257"#, true),
            (r#""flags":-1"#, false),
            (r#""droppedAttributesCount":"3""#, true),
            (
                r#""events":[{"name":"exception","timeUnixNano":"1"}]"#,
                true,
            ),
            (r#""events":["x"]"#, false),
            (
                r#""links":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","flags":1}]"#,
                true,
            ),
        ];
        for (member, ok) in cases {
            let line = format!(r#"{{"name":"llm_request","attributes":[],{member}}}"#);
            let (j, _, f) = run(&mut g, &line, Level::Standard);
            assert_eq!(j.verdict == Verdict::Verbatim, ok, "{member}: {f:?}");
        }
    }

    #[test]
    fn unknown_structural_keys_and_span_names_are_handled() {
        let mut g = gate("");
        let line = r#"{"name":"llm_request","attributes":[],"note":"x"}"#;
        let (j, out, f) = run(&mut g, line, Level::Standard);
        assert_eq!(j.verdict, Verdict::Rewritten);
        assert_eq!(out, r#"{"name":"llm_request","attributes":[]}"#);
        assert_eq!(f, vec!["unknown_field@note"]);
        let line = r#"{"name":"other","attributes":[]}"#;
        let (j, _, f) = run(&mut g, line, Level::Standard);
        assert_eq!(j.verdict, Verdict::Dropped);
        assert_eq!(f, vec!["one_of@name"]);
    }

    #[test]
    fn log_body_is_content() {
        let line = r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"1","severityNumber":9,"severityText":"INFO","body":{"stringValue":"hello"}}]}]}]}"#;
        let mut g = gate("");
        let (j, out, f) = run(&mut g, line, Level::Standard);
        assert_eq!(j.verdict, Verdict::Rewritten);
        assert!(j.has_content);
        assert_eq!(
            f,
            vec!["content_field@resourceLogs[0].scopeLogs[0].logRecords[0].body"]
        );
        assert!(!out.contains("hello"));
        let (j, _, _) = run(&mut g, line, Level::Full);
        assert_eq!(j.verdict, Verdict::Verbatim);
        // A kvlist body (an event's) is captured whole at full level...
        let nested = line.replace(
            r#"{"stringValue":"hello"}"#,
            r#"{"kvlistValue":{"values":[]}}"#,
        );
        let (j, _, f) = run(&mut g, &nested, Level::Full);
        assert_eq!(j.verdict, Verdict::Verbatim, "{f:?}");
        // ...but a bytesValue, which no redactor reads, is not.
        let bytes = line.replace(r#"{"stringValue":"hello"}"#, r#"{"bytesValue":"aGVsbG8="}"#);
        let (j, out, f) = run(&mut g, &bytes, Level::Full);
        assert_eq!(j.verdict, Verdict::Rewritten);
        assert!(!out.contains("aGVsbG8"));
        assert_eq!(
            f,
            vec!["type@resourceLogs[0].scopeLogs[0].logRecords[0].body"]
        );
    }

    #[test]
    fn full_level_holds_non_content_attributes_to_the_allowlist() {
        let line = r#"{"name":"llm_request","attributes":[{"key":"gen_ai.prompt.0.content","value":{"stringValue":"hi"}},{"key":"gen_ai.prompt.name","value":{"stringValue":"x"}},{"key":"gen_ai.completion","value":{"bytesValue":"aGk="}}]}"#;
        let mut g = gate("");
        let (j, out, f) = run(&mut g, line, Level::Full);
        assert_eq!(j.verdict, Verdict::Rewritten);
        assert_eq!(
            out,
            r#"{"name":"llm_request","attributes":[{"key":"gen_ai.prompt.0.content","value":{"stringValue":"hi"}}]}"#
        );
        assert_eq!(
            f,
            vec![
                r#"unknown_field@attributes["gen_ai.prompt.name"]"#,
                r#"type@attributes["gen_ai.completion"]"#
            ]
        );
    }

    /// SECURITY: an allowance of one unit lets exactly one span's content
    /// out, whatever the number of spans in the request; bytes likewise.
    #[test]
    fn an_allowance_splits_a_request_by_span_and_by_bytes() {
        let span = |i: usize| {
            format!(
                r#"{{"name":"llm_request","attributes":[{{"key":"gen_ai.prompt","value":{{"stringValue":"CANARY-{i}"}}}}]}}"#
            )
        };
        let spans: Vec<String> = (0..5).map(span).collect();
        let line = format!(
            r#"{{"resource":{{"attributes":[]}},"resourceSpans":[{{"resource":{{"attributes":[{{"key":"gen_ai.prompt","value":{{"stringValue":"CANARY-r"}}}}]}},"scopeSpans":[{{"spans":[{}]}}]}}]}}"#,
            spans.join(",")
        );
        let line = line.replacen(r#""resource":{"attributes":[]},"#, "", 1);
        let mut g = gate("");
        g.set_allowance(Some(Units {
            records: 2,
            bytes: u64::MAX,
        }));
        let (j, out, _) = run(&mut g, &line, Level::Full);
        assert_eq!(j.verdict, Verdict::Rewritten);
        // The resource carries content: it is the first unit, span 0 the second.
        assert!(
            out.contains("CANARY-r") && out.contains("CANARY-0"),
            "{out}"
        );
        for i in 1..5 {
            assert!(!out.contains(&format!("CANARY-{i}")), "{out}");
        }
        assert_eq!(g.captured().records, 2);
        assert!(g.shortfall().is_some_and(|s| s.records == 3));
        // By bytes: room for exactly one span object.
        let one = span(0).len() as u64;
        let bare = format!(
            r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{}]}}]}}]}}"#,
            spans.join(",")
        );
        g.set_allowance(Some(Units {
            records: u64::MAX,
            bytes: one + 5,
        }));
        let (_, out, _) = run(&mut g, &bare, Level::Full);
        assert!(
            out.contains("CANARY-0") && !out.contains("CANARY-1"),
            "{out}"
        );
        assert_eq!(
            g.captured(),
            Units {
                records: 1,
                bytes: one
            }
        );
        // No allowance: no limit; standard level: nothing captured.
        g.set_allowance(None);
        let (j, _, _) = run(&mut g, &bare, Level::Full);
        assert_eq!(j.verdict, Verdict::Verbatim);
        g.set_allowance(Some(Units::UNLIMITED));
        let (_, out, _) = run(&mut g, &bare, Level::Standard);
        assert!(!out.contains("CANARY"));
        assert_eq!(g.captured(), Units::default());
        // A bare span is one unit.
        g.set_allowance(Some(Units {
            records: 0,
            bytes: 0,
        }));
        let (j, out, _) = run(&mut g, &span(7), Level::Full);
        assert_eq!(j.verdict, Verdict::Rewritten);
        assert!(!out.contains("CANARY"), "{out}");
    }

    /// SECURITY: one bad span (or log record) is dropped on its own and
    /// none of its bytes go out; the good ones pass; a violation outside
    /// any item (the resource) still drops the whole request.
    #[test]
    fn a_bad_item_is_dropped_alone() {
        let good = |i: usize| {
            format!(
                r#"{{"name":"llm_request","attributes":[{{"key":"cf.queue_wait_s","value":{{"doubleValue":0.{i}}}}}]}}"#
            )
        };
        let bad = r#"{"name":"llm_request","attributes":[{"key":"cf.request_id","value":{"stringValue":"CANARY-bad sentence"}},{"key":"cf.queue_wait_s","value":{"doubleValue":0.9}}]}"#;
        let bad_name = r#"{"name":"CANARY-name","attributes":[]}"#;
        let line = format!(
            r#"{{"resourceSpans":[{{"resource":{{"attributes":[]}},"scopeSpans":[{{"spans":[{},{bad},{},{bad_name}]}}]}}]}}"#,
            good(1),
            good(2)
        );
        let mut g = gate("");
        for level in [Level::Standard, Level::Full] {
            let (j, out, f) = run(&mut g, &line, level);
            assert_eq!(j.verdict, Verdict::Rewritten, "{f:?}");
            assert!(!out.contains("CANARY"), "{out}");
            assert!(!out.contains("0.9"), "{out}");
            assert_eq!(
                out,
                format!(
                    r#"{{"resourceSpans":[{{"resource":{{"attributes":[]}},"scopeSpans":[{{"spans":[{},{}]}}]}}]}}"#,
                    good(1),
                    good(2)
                )
            );
            assert_eq!(g.rejected_items(), &[1, 3]);
            assert_eq!(
                f,
                vec![
                    r#"pattern@resourceSpans[0].scopeSpans[0].spans[1].attributes["cf.request_id"]"#,
                    "one_of@resourceSpans[0].scopeSpans[0].spans[3].name"
                ]
            );
        }
        // Log records likewise.
        let logs = r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"1"},{"timeUnixNano":"CANARY"},{"timeUnixNano":"2"}]}]}]}"#;
        let (j, out, _) = run(&mut g, logs, Level::Standard);
        assert_eq!(j.verdict, Verdict::Rewritten);
        assert_eq!(
            out,
            r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"1"},{"timeUnixNano":"2"}]}]}]}"#
        );
        assert_eq!(g.rejected_items(), &[1]);
        // Every item bad: the request is dropped whole.
        let all_bad =
            format!(r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{bad},{bad}]}}]}}]}}"#);
        let (j, out, _) = run(&mut g, &all_bad, Level::Standard);
        assert_eq!(j.verdict, Verdict::Dropped);
        assert!(out.is_empty());
        assert!(g.rejected_items().is_empty());
        // A violation in the resource cannot be attributed to one span.
        let bad_resource = line.replacen(
            r#""resource":{"attributes":[]}"#,
            r#""resource":{"attributes":[{"key":"service.name","value":{"stringValue":"CANARY resource"}}]}"#,
            1,
        );
        let (j, out, _) = run(&mut g, &bad_resource, Level::Standard);
        assert_eq!(j.verdict, Verdict::Dropped);
        assert!(out.is_empty());
        // A malformation anywhere still refuses the whole request.
        let dup = line.replacen(
            r#"{"key":"cf.queue_wait_s","value":{"doubleValue":0.1}}"#,
            r#"{"key":"cf.queue_wait_s","value":{"doubleValue":0.1}},{"key":"cf.queue_wait_s","value":{"doubleValue":0.1}}"#,
            1,
        );
        let (j, _, _) = run(&mut g, &dup, Level::Standard);
        assert_eq!(j.verdict, Verdict::Malformed);
        // A clean record after a partial one reports no rejected items.
        let (j, _, _) = run(&mut g, &good(3), Level::Standard);
        assert_eq!(j.verdict, Verdict::Verbatim);
        assert!(g.rejected_items().is_empty());
    }

    /// SECURITY (issue 15 item 5): structured content at full level keeps
    /// its structure and every string in it, kvlist keys included, goes
    /// through the sink's redactor; at standard level it is stripped; a
    /// structure deeper than max_nesting, or holding bytes, is dropped
    /// whole.
    #[test]
    fn structured_content_is_captured_whole_and_redacted() {
        let policy = Policy::from_toml(
            Path::new("p.toml"),
            "[audit]\npath = \"audit.jsonl\"\n[[sink]]\nname = \"cap\"\nfull_allowed = true\noutput = \"stdout\"\n",
        )
        .unwrap();
        let mut g = Gate::for_sink(Arc::new(policy), "cap");
        let card = "4111 1111 1111 1111";
        let messages = format!(
            r#"{{"arrayValue":{{"values":[{{"kvlistValue":{{"values":[{{"key":"role","value":{{"stringValue":"user"}}}},{{"key":"parts","value":{{"arrayValue":{{"values":[{{"kvlistValue":{{"values":[{{"key":"type","value":{{"stringValue":"text"}}}},{{"key":"content","value":{{"stringValue":"CANARY card {card} ok"}}}}]}}}}]}}}}}},{{"key":"n","value":{{"intValue":"3"}}}},{{"key":"{card}","value":{{"boolValue":true}}}}]}}}}]}}}}"#
        );
        let line = format!(
            r#"{{"name":"llm_request","attributes":[{{"key":"gen_ai.input.messages","value":{messages}}}]}}"#
        );
        let (j, out, f) = run(&mut g, &line, Level::Full);
        assert_eq!(j.verdict, Verdict::Rewritten, "{f:?}");
        assert!(f.is_empty(), "{f:?}");
        assert!(!out.contains("4111"), "{out}");
        assert!(out.contains("CANARY card "), "{out}");
        // The structure is kept: the same shape with the card redacted.
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let msg = &v["attributes"][0]["value"]["arrayValue"]["values"][0]["kvlistValue"]["values"];
        assert_eq!(msg[0]["key"], "role");
        assert_eq!(msg[0]["value"]["stringValue"], "user");
        let part = &msg[1]["value"]["arrayValue"]["values"][0]["kvlistValue"]["values"];
        assert_eq!(part[0]["value"]["stringValue"], "text");
        assert!(
            part[1]["value"]["stringValue"]
                .as_str()
                .unwrap()
                .starts_with("CANARY card ")
        );
        assert_eq!(msg[2]["value"]["intValue"], "3");
        assert!(!msg[3]["key"].as_str().unwrap().contains("4111"));
        // Without anything to redact it goes out verbatim.
        let clean = line.replace(card, "nothing");
        let (j, _, f) = run(&mut g, &clean, Level::Full);
        assert_eq!(j.verdict, Verdict::Verbatim, "{f:?}");
        // Standard level: stripped as before.
        let (j, out, f) = run(&mut g, &line, Level::Standard);
        assert_eq!(j.verdict, Verdict::Rewritten);
        assert!(!out.contains("CANARY"), "{out}");
        assert_eq!(
            f,
            vec![r#"content_field@attributes["gen_ai.input.messages"]"#]
        );
        // Too deep (max_nesting = 8): dropped whole, one finding.
        let mut deep = r#"{"stringValue":"CANARY-deep"}"#.to_string();
        for _ in 0..9 {
            deep = format!(r#"{{"arrayValue":{{"values":[{deep}]}}}}"#);
        }
        let line = format!(
            r#"{{"name":"llm_request","attributes":[{{"key":"gen_ai.output.messages","value":{deep}}}]}}"#
        );
        let (_, out, f) = run(&mut g, &line, Level::Full);
        assert!(!out.contains("CANARY"), "{out}");
        assert_eq!(
            f,
            vec![r#"max_nesting@attributes["gen_ai.output.messages"]"#]
        );
        // Bytes anywhere inside: dropped whole.
        let line = r#"{"name":"llm_request","attributes":[{"key":"gen_ai.output.messages","value":{"arrayValue":{"values":[{"stringValue":"CANARY-b"},{"bytesValue":"AAAA"}]}}}]}"#;
        let (_, out, f) = run(&mut g, line, Level::Full);
        assert!(!out.contains("CANARY"), "{out}");
        assert_eq!(f, vec![r#"type@attributes["gen_ai.output.messages"]"#]);
        // A kvlist element with an extra member: not an AnyValue list.
        let line = r#"{"name":"llm_request","attributes":[{"key":"gen_ai.output.messages","value":{"kvlistValue":{"values":[{"key":"a","value":{"stringValue":"CANARY-x"},"extra":1}]}}}]}"#;
        let (_, out, _) = run(&mut g, line, Level::Full);
        assert!(!out.contains("CANARY"), "{out}");
    }

    /// SECURITY (issue 30, item 7): a number in captured structured
    /// content is read by the digit detectors in its decimal form, as a
    /// string in its place would be: a card held as an `intValue` (as a
    /// JSON string or number), a `doubleValue` (plain or with an
    /// exponent), in a kvlist or an array, reached the capture sink in
    /// clear. A masked number becomes a `stringValue` holding the marker;
    /// other numbers keep their type and spelling.
    #[test]
    fn numbers_in_structured_content_are_redacted_like_strings() {
        let policy = Policy::from_toml(
            Path::new("p.toml"),
            "[audit]\npath = \"audit.jsonl\"\n[redact]\nbuiltin = [\"credit_card\", \"us_ssn\", \"phone\"]\n[[sink]]\nname = \"cap\"\nfull_allowed = true\noutput = \"stdout\"\n",
        )
        .unwrap();
        let mut g = Gate::for_sink(Arc::new(policy), "cap");
        let span = |value: &str| {
            format!(
                r#"{{"name":"llm_request","attributes":[{{"key":"gen_ai.input.messages","value":{value}}}]}}"#
            )
        };
        let kv = |key: &str, any: &str| {
            span(&format!(
                r#"{{"kvlistValue":{{"values":[{{"key":"role","value":{{"stringValue":"user"}}}},{{"key":"{key}","value":{any}}},{{"key":"n","value":{{"intValue":"3"}}}}]}}}}"#
            ))
        };
        for any in [
            r#"{"intValue":"4111111111111111"}"#,
            r#"{"intValue":4111111111111111}"#,
            r#"{"intValue":"-4111111111111111"}"#,
            r#"{"doubleValue":4111111111111111}"#,
            r#"{"doubleValue":4.111111111111111e15}"#,
            r#"{"doubleValue":4111111111111111.0}"#,
            r#"{"arrayValue":{"values":[{"intValue":"1"},{"intValue":"5555555555554444"}]}}"#,
        ] {
            let line = kv("card", any);
            let (j, out, f) = run(&mut g, &line, Level::Full);
            assert_eq!(j.verdict, Verdict::Rewritten, "{any}: {f:?}");
            assert!(f.is_empty(), "{any}: {f:?}");
            for digits in [
                "4111111111111111",
                "111111111111",
                "5555555555554444",
                "4.111",
            ] {
                assert!(!out.contains(digits), "{any}: {out}");
            }
            // A masked number is a string holding the marker (a minus
            // sign is no card digit and stays).
            assert!(
                out.contains(r#"{"stringValue":"[REDACTED:credit_card]"}"#)
                    || out.contains(r#"{"stringValue":"-[REDACTED:credit_card]"}"#),
                "{out}"
            );
            // Everything else keeps its type and spelling.
            assert!(
                out.contains(r#"{"key":"n","value":{"intValue":"3"}}"#),
                "{out}"
            );
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(
                v["attributes"][0]["value"]["kvlistValue"]["values"][0]["value"]["stringValue"],
                "user"
            );
        }
        // A number that holds nothing stays a number; verbatim.
        for any in [
            r#"{"intValue":"1788450022633673216"}"#,
            r#"{"doubleValue":0.4111111111111111}"#,
            r#"{"doubleValue":1e300}"#,
            r#"{"intValue":"78051120"}"#,
        ] {
            let (j, _, f) = run(&mut g, &kv("x", any), Level::Full);
            assert_eq!(j.verdict, Verdict::Verbatim, "{any}: {f:?}");
        }
        // A log body as a kvlist: the same.
        let log = r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"1","body":{"kvlistValue":{"values":[{"key":"card","value":{"intValue":"4111111111111111"}}]}}}]}]}]}"#;
        let (_, out, f) = run(&mut g, log, Level::Full);
        assert!(!out.contains("4111111111111111"), "{out} {f:?}");
        assert!(out.contains("[REDACTED:credit_card]"), "{out} {f:?}");
    }

    /// Issue 15 item 2: the default policy passes GenAI metadata of the
    /// conventions' shapes and nothing an attacker could hide text in.
    #[test]
    fn genai_metadata_passes_by_the_conventions_shapes_and_free_text_does_not() {
        let mut g = gate("");
        let span =
            |name: &str, attrs: &str| format!(r#"{{"name":"{name}","attributes":[{attrs}]}}"#);
        let s = |k: &str, v: &str| format!(r#"{{"key":"{k}","value":{{"stringValue":"{v}"}}}}"#);
        let i = |k: &str, v: i64| format!(r#"{{"key":"{k}","value":{{"intValue":"{v}"}}}}"#);
        let d = |k: &str, v: f64| format!(r#"{{"key":"{k}","value":{{"doubleValue":{v}}}}}"#);
        let reasons = |vals: &str| {
            format!(
                r#"{{"key":"gen_ai.response.finish_reasons","value":{{"arrayValue":{{"values":[{vals}]}}}}}}"#
            )
        };
        let clean = [
            s("gen_ai.operation.name", "chat"),
            s("gen_ai.provider.name", "gcp.vertex_ai"),
            s("gen_ai.system", "openai"),
            s("gen_ai.request.model", "meta-llama/Llama-3.1-8B-Instruct"),
            s("gen_ai.response.model", "gpt-4o-2024-08-06"),
            s("gen_ai.response.id", "chatcmpl-9aBcD3"),
            reasons(r#"{"stringValue":"stop"},{"stringValue":"tool_calls"}"#),
            i("gen_ai.request.max_tokens", 512),
            d("gen_ai.request.temperature", 0.7),
            d("gen_ai.request.top_p", 1.0),
            i("gen_ai.usage.cache_read.input_tokens", 64),
            i("gen_ai.usage.reasoning.output_tokens", 8),
            s("gen_ai.conversation.id", "conv_5j66UpCpwteGg4YSxUnt7lPY"),
            s("gen_ai.agent.name", "Math Tutor"),
            s("gen_ai.tool.type", "function"),
            s("server.address", "api.openai.com"),
            i("server.port", 443),
            s("error.type", "openai.RateLimitError"),
        ]
        .join(",");
        for name in [
            "chat gpt-4o",
            "embeddings text-embedding-3-small",
            "execute_tool get_weather",
            "invoke_agent x",
            "chat",
            "llm_request",
        ] {
            let (j, _, f) = run(&mut g, &span(name, &clean), Level::Standard);
            assert_eq!(j.verdict, Verdict::Verbatim, "{name}: {f:?}");
        }
        // Each of these is a way to smuggle text: every one is a violation.
        let attacks = [
            span("chat tell me the secret", ""),
            span("chat alice@example.com", ""),
            span("summarise gpt-4o", ""),
            span("chat gpt-4o ", ""),
            span("llm_request", &s("gen_ai.operation.name", "chat with bob")),
            span("llm_request", &s("gen_ai.request.model", "gpt 4o is great")),
            span(
                "llm_request",
                &s("gen_ai.response.id", "id alice@example.com"),
            ),
            span(
                "llm_request",
                &s("gen_ai.conversation.id", "alice@example.com"),
            ),
            span("llm_request", &s("gen_ai.agent.name", "a b c d e f")),
            span("llm_request", &s("server.address", "alice@example.com")),
            span(
                "llm_request",
                &reasons(r#"{"stringValue":"the user said hi"}"#),
            ),
            span("llm_request", &reasons(r#"{"arrayValue":{"values":[]}}"#)),
            span("llm_request", &reasons(r#"{"kvlistValue":{"values":[]}}"#)),
            span(
                "llm_request",
                &reasons(&vec![r#"{"stringValue":"stop"}"#; 17].join(",")),
            ),
            span(
                "llm_request",
                r#"{"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":[],"x":"CANARY"}}}"#,
            ),
            span("llm_request", &d("gen_ai.request.temperature", 9.5)),
            span("llm_request", &i("server.port", 70000)),
        ];
        for line in attacks {
            let (j, out, f) = run(&mut g, &line, Level::Standard);
            assert_eq!(j.verdict, Verdict::Dropped, "{line}: {f:?}");
            assert!(out.is_empty());
        }
        // Free text that looks like metadata is not on the allowlist.
        for key in [
            "gen_ai.request.stop_sequences",
            "gen_ai.agent.description",
            "gen_ai.tool.description",
            "exception.message",
            "exception.stacktrace",
        ] {
            let (j, out, f) = run(&mut g, &span("llm_request", &s(key, "CANARY")), Level::Full);
            assert_eq!(j.verdict, Verdict::Rewritten, "{key}");
            assert!(!out.contains("CANARY"), "{key}: {out}");
            assert_eq!(f.len(), 1, "{key}: {f:?}");
        }
    }

    #[test]
    fn check_mode_leaves_output_empty() {
        let mut g = gate("");
        let line = r#"{"name":"llm_request","attributes":[],"note":"x"}"#;
        let j = g.judge(1, &Line::Text(line.as_bytes()), Level::Standard, false);
        assert_eq!(j.verdict, Verdict::Rewritten);
        assert!(g.output().is_empty());
    }
}
