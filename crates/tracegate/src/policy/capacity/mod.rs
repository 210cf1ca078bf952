//! The capacity of the standard level: an upper bound, computed from the
//! compiled policy alone, on the free bits one standard record can carry
//! to a sink (docs/policy.md, "How the bound is computed").
//!
//! A producer that wants to smuggle data through the gate chooses, among
//! the records the gate lets through at standard level, the one that
//! encodes its message. One record can carry at most log2 of the number of
//! distinct records the sink can receive. This module bounds that number
//! from above, per sink and per record format (a cf record, one OTLP span
//! with its resource and scope, one OTLP log record likewise, one evidence
//! record), as a sum of parts, each with its derivation:
//!
//! - a string: `one_of` of n values is log2(n); a pattern is counted on
//!   its DFA together with `max_len` and the segment bounds (module
//!   [`count`]); a string rule whose language is infinite is *unbounded*;
//! - a number: the canonical literals a sink can receive
//!   (`record::canonical`: up to 17 significant digits, 25 bytes); an
//!   integer: the integers in its range, plus the spelling `-0`;
//! - an OTLP id: 128 or 64 bits (or its presence only, when the sink
//!   pseudonymizes it); a timestamp 64 bits and a count 32, each in two
//!   JSON kinds (a number or a string of digits);
//! - presence: an optional member is absent or one of its values,
//!   `log2(1 + n)`; the order of members, which the gate passes through
//!   as written, `log2(k!)` for the k members an object may hold (so
//!   every subset in every order is counted); an OTLP attribute's `key`
//!   and `value` in either order, an `intValue` as a string or a number;
//! - repeated structures up to their caps: at most `m` elements of `n`
//!   choices each are at most `(m + 1) n^m` records: `log2(m + 1)` for the
//!   count and `m` times each element's parts;
//! - the line's spacing style (compact or one space), 1 bit.
//!
//! The parts add up to the bound, and every step rounds up, so the bound
//! is never below what a record can carry. Detectors only remove records,
//! so ignoring them keeps it an upper bound.
//!
//! **Pseudonyms.** A member the sink pseudonymizes goes out as a keyed
//! pseudonym of the same shape; it is counted by its shape (its kept
//! prefix and the class of each byte), which is what a reader without the
//! redaction key can tell apart. A reader who holds the key sees the
//! value's own count. An id the sink pseudonymizes carries its presence.
//!
//! Pure: no IO, no clock; the same policy always gives the same report.

pub mod count;
mod known;

use std::fmt::Write as _;

use rustc_hash::FxHashMap;

use super::rule::{FieldRule, FieldSet, ValueType};
use super::{OtlpRules, Policy};
use crate::otlp_schema::{self, FieldKind, Name, Place, Repeated, Structural, Text};
use count::{CountError, Mode, log_add};

crate::io_text::named_enum! {
    /// A record format whose bound is computed; its name (`as_str`) is
    /// the one in reports and in `max_free_bits` tables.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum RecordFormat {
        /// A flat (cf) record.
        Cf = "cf",
        /// One OTLP span, in an export request with its one resource and
        /// scope (or a bare span object).
        OtlpSpan = "otlp_span",
        /// One OTLP log record, in an export request with its one resource
        /// and scope.
        OtlpLog = "otlp_log",
        /// One latency-evidence record.
        Evidence = "evidence",
    }
}

/// One contributor to a bound.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// Where in the record (`span.attributes["gen_ai.request.model"]`).
    pub path: String,
    /// Its bits (infinite when unbounded), repetitions included.
    pub bits: f64,
    /// How they were derived, for a reviewer.
    pub derivation: String,
}

/// The bound of one record format for one sink.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    /// The format.
    pub format: RecordFormat,
    /// The sum of the parts: at least the free bits of any record of this
    /// format the sink can receive at standard level. Infinite when a part
    /// is unbounded.
    pub bits: f64,
    /// Every contributor.
    pub parts: Vec<Part>,
}

impl Bound {
    /// Whether the bound is finite.
    pub fn is_bounded(&self) -> bool {
        self.bits.is_finite()
    }

    /// The `n` largest contributors, largest first (unbounded ones first).
    pub fn top(&self, n: usize) -> Vec<&Part> {
        let mut parts: Vec<&Part> = self.parts.iter().collect();
        parts.sort_by(|a, b| b.bits.total_cmp(&a.bits).then_with(|| a.path.cmp(&b.path)));
        parts.truncate(n);
        parts
    }

    /// The unbounded contributors.
    pub fn unbounded(&self) -> impl Iterator<Item = &Part> {
        self.parts.iter().filter(|p| !p.bits.is_finite())
    }

    /// The bound rounded up to whole bits (`u64::MAX` when unbounded).
    pub fn ceil(&self) -> u64 {
        if self.bits.is_finite() {
            self.bits.ceil().max(0.0) as u64
        } else {
            u64::MAX
        }
    }
}

/// The bounds of one sink.
#[derive(Debug, Clone, PartialEq)]
pub struct SinkCapacity {
    /// The sink.
    pub sink: String,
    /// Per format, in [`RecordFormat::ALL`] order.
    pub formats: Vec<Bound>,
}

impl SinkCapacity {
    /// The bound of `format`.
    pub fn format(&self, format: RecordFormat) -> Option<&Bound> {
        self.formats.iter().find(|b| b.format == format)
    }
}

/// The capacity report of a policy.
#[derive(Debug, Clone, PartialEq)]
pub struct Capacity {
    /// What a record judged without a sink (`check`) can carry: no
    /// pseudonyms.
    pub policy: Vec<Bound>,
    /// Per sink, in policy order.
    pub sinks: Vec<SinkCapacity>,
}

impl Capacity {
    /// Compute the report of `policy`.
    pub fn of(policy: &Policy) -> Capacity {
        let mut cache = Cache::default();
        let base = formats(policy, &[], &mut cache);
        let sinks = policy.sinks().iter().map(|sink| {
            let pseudo = policy.redaction().sink(&sink.name).pseudonymize;
            let formats = if pseudo.is_empty() {
                base.clone()
            } else {
                formats(policy, &pseudo, &mut cache)
            };
            let sink = sink.name.clone();
            SinkCapacity { sink, formats }
        });
        let sinks = sinks.collect();
        Capacity {
            policy: base,
            sinks,
        }
    }

    /// The bounds of sink `name`.
    pub fn sink(&self, name: &str) -> Option<&SinkCapacity> {
        self.sinks.iter().find(|s| s.sink == name)
    }
}

/// The bound of every format for a sink that pseudonymizes `pseudo`.
fn formats(policy: &Policy, pseudo: &[String], cache: &mut Cache) -> Vec<Bound> {
    RecordFormat::ALL
        .into_iter()
        .map(|format| {
            let mut w = Walker {
                policy,
                pseudo,
                parts: Vec::new(),
                times: 1.0,
                times_note: String::new(),
                cache,
            };
            w.part(
                "line",
                1.0,
                "spacing style: compact, or one space after each comma and colon".into(),
            );
            let std = &policy.standard;
            match format {
                RecordFormat::Cf => w.object("", &std.fields, true),
                RecordFormat::Evidence => w.object("", &std.evidence, true),
                RecordFormat::OtlpSpan => {
                    w.part(
                        "form",
                        1.0,
                        "an export request or a bare span object (the bare span is no larger)"
                            .into(),
                    );
                    w.message(&otlp_schema::REQUEST, false);
                }
                RecordFormat::OtlpLog => w.message(&otlp_schema::REQUEST, true),
            }
            let bits = w.parts.iter().map(|p| p.bits).sum();
            Bound {
                format,
                bits,
                parts: w.parts,
            }
        })
        .collect()
}

/// Counted languages, by what they were counted from.
#[derive(Default)]
struct Cache {
    languages: FxHashMap<String, Result<count::Counted, CountError>>,
}

/// Where a value sits: what spellings its JSON allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// A JSON member of a cf or evidence record.
    Json,
    /// An OTLP AnyValue (`intValue` as a string or a number).
    Any,
}

struct Walker<'a> {
    policy: &'a Policy,
    pseudo: &'a [String],
    parts: Vec<Part>,
    /// How many times the structure being walked repeats.
    times: f64,
    /// Why, for derivations (` x 32 events`).
    times_note: String,
    cache: &'a mut Cache,
}

/// log2(n!), rounded up.
fn log2_factorial(n: usize) -> f64 {
    let sum: f64 = (2..=n).map(|k| (k as f64).log2()).sum();
    if n < 2 { 0.0 } else { sum + count::ROUNDING }
}

/// log2 of `sum_{k=0..=m} 2^(k l)`: sequences of at most `m` elements of
/// `2^l` choices each.
fn log2_sequences(l: f64, m: usize) -> f64 {
    if l == f64::NEG_INFINITY || m == 0 {
        return 0.0;
    }
    if l <= 0.0 {
        return ((m + 1) as f64).log2();
    }
    let m = m as f64;
    // m l + log2((1 - 2^-(m+1) l) / (1 - 2^-l)), every term positive.
    m * l + ((1.0 - (-(m + 1.0) * l).exp2()) / (1.0 - (-l).exp2())).log2()
}

/// A bit count as text: two decimals, or `unbounded`.
pub fn bits_text(b: f64) -> String {
    if b.is_finite() {
        format!("{b:.2}")
    } else {
        "unbounded".into()
    }
}

/// A pattern's text, cut for a derivation line.
fn shown_pattern(p: &str) -> String {
    let p = p
        .strip_prefix("^(?:")
        .and_then(|p| p.strip_suffix(")$"))
        .unwrap_or(p);
    if p.chars().count() > 48 {
        let cut: String = p.chars().take(45).collect();
        format!("`{cut}...`")
    } else {
        format!("`{p}`")
    }
}

/// The count of integers in `[lo, hi]` (both within i64), as f64.
fn integers(rule: &FieldRule) -> (f64, bool) {
    let lo = rule
        .min
        .map_or(i64::MIN as f64, |m| m.ceil())
        .max(i64::MIN as f64);
    let hi = rule
        .max
        .map_or(i64::MAX as f64, |m| m.floor())
        .min(i64::MAX as f64);
    if hi < lo {
        return (0.0, false);
    }
    (hi - lo + 1.0, lo <= 0.0 && hi >= 0.0)
}

impl Walker<'_> {
    fn part(&mut self, path: &str, bits: f64, derivation: String) {
        // Every part rounds up (a log of a sum computed in f64 may fall a
        // hair below the exact one).
        let bits = if bits <= 0.0 {
            0.0
        } else {
            bits * self.times + count::ROUNDING
        };
        let derivation = format!("{derivation}{}", self.times_note);
        self.parts.push(Part {
            path: path.to_string(),
            bits,
            derivation,
        });
    }

    fn unbounded(&mut self, path: &str, why: String) {
        self.parts.push(Part {
            path: path.to_string(),
            bits: f64::INFINITY,
            derivation: format!("unbounded: {why}"),
        });
    }

    /// Walk `inner` repeated at most `m` times.
    fn repeated(&mut self, m: usize, note: &str, inner: impl FnOnce(&mut Self)) {
        let (times, saved) = (self.times, self.times_note.clone());
        self.times *= m as f64;
        let _ = write!(self.times_note, ", x {m} {note}");
        inner(self);
        self.times = times;
        self.times_note = saved;
    }

    fn pseudonymized(&self, name: &str) -> bool {
        self.pseudo.iter().any(|p| p == name)
    }

    /// A counted language, cached.
    fn language(
        &mut self,
        rule: &FieldRule,
        max_len: Option<usize>,
        mode: Mode,
    ) -> Result<count::Counted, CountError> {
        let (text, unicode) = match &rule.pattern {
            Some(p) => (p.as_str().to_string(), p.unicode()),
            // Free text: any UTF-8 string.
            None => ("^(?s:.*)$".to_string(), true),
        };
        let key = format!(
            "{text}\0{unicode}\0{max_len:?}\0{:?}\0{mode:?}",
            rule.segments
        );
        let counted =
            self.cache.languages.entry(key).or_insert_with(|| {
                count::count(&text, unicode, max_len, rule.segments.as_ref(), mode)
            });
        counted.clone()
    }

    /// The strings of `rule` (at most `cap` bytes when given): log2 of
    /// their number and its derivation, or why it is unbounded.
    fn strings(
        &mut self,
        rule: &FieldRule,
        cap: Option<usize>,
        shapes: bool,
    ) -> Result<(f64, String), String> {
        let max_len = match (rule.max_len, cap) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if let Some(one_of) = &rule.one_of {
            let mut values: Vec<&String> = one_of
                .iter()
                .filter(|v| rule.check_string(v).is_ok() && max_len.is_none_or(|m| v.len() <= m))
                .collect();
            values.sort();
            values.dedup();
            let n = values.len() as f64;
            let l = n.log2();
            return Ok((
                l,
                format!("one_of of {n} values: log2({n}) = {}", bits_text(l)),
            ));
        }
        let mode = if shapes { Mode::Shapes } else { Mode::Strings };
        let what = match &rule.pattern {
            Some(p) => format!("pattern {}", shown_pattern(p.as_str())),
            None => "any text".to_string(),
        };
        let mut bounds = Vec::new();
        if let Some(m) = max_len {
            bounds.push(format!("up to {m} bytes"));
        }
        if let Some(s) = &rule.segments {
            if let Some(n) = s.max_segments {
                bounds.push(format!("{n} segments"));
            }
            if let Some(n) = s.max_segment_len {
                bounds.push(format!("segments of {n} bytes"));
            }
            if let Some(n) = s.max_words {
                bounds.push(format!("{n} words"));
            }
        }
        let bounds = if bounds.is_empty() {
            String::new()
        } else {
            format!(" ({})", bounds.join(", "))
        };
        match self.language(rule, max_len, mode) {
            Ok(c) => {
                let segmented = rule.segments.as_ref().is_some_and(|s| {
                    s.max_segments.is_some() || s.max_segment_len.is_some() || s.max_words.is_some()
                });
                // Said so when the product was too large and the segment
                // bounds were left out (a larger count, still a bound).
                let bounds = if segmented && !c.segments_counted {
                    format!("{bounds} (segment bounds too costly to count with the DFA: left out)")
                } else {
                    bounds
                };
                let prefixes = self.policy.redact().pseudonym_prefixes.len();
                let (l, how) = if shapes {
                    let extra = ((prefixes + 1) as f64).log2();
                    (
                        c.log2 + extra,
                        format!(
                            "pseudonymized: the shapes of {what}{bounds}, counted on its DFA ({} states), and which of {prefixes} kept prefixes",
                            c.states
                        ),
                    )
                } else {
                    (
                        c.log2,
                        format!("{what}{bounds} counted on its DFA ({} states)", c.states),
                    )
                };
                let l = if l == f64::NEG_INFINITY {
                    l
                } else {
                    l.max(0.0)
                };
                Ok((l, format!("{how}: {} bits", bits_text(l))))
            }
            Err(CountError::Unbounded) => Err(format!(
                "{what} accepts strings of any length and the rule has no max_len"
            )),
            Err(CountError::TooBig) => match max_len {
                // Too large to count: every byte free, of at most `m`.
                Some(m) => {
                    let l = 8.0 * m as f64 + 0.01;
                    Ok((
                        l,
                        format!("{what}{bounds} too large to count: 8 bits x {m} bytes"),
                    ))
                }
                None => Err(format!(
                    "{what} is too large to count and the rule has no max_len"
                )),
            },
        }
    }

    /// The choices of one scalar value of `rule` where it is present, not
    /// counting `null`.
    fn scalar(
        &mut self,
        rule: &FieldRule,
        ctx: Ctx,
        shapes: bool,
    ) -> Result<(f64, String), String> {
        Ok(match rule.ty {
            ValueType::String => return self.strings(rule, None, shapes),
            ValueType::Integer => {
                let (n, zero) = integers(rule);
                let (count, how) = match ctx {
                    Ctx::Json => (n + f64::from(u8::from(zero)), "integers in range"),
                    Ctx::Any => (
                        2.0 * n + f64::from(u8::from(zero)),
                        "integers in range, each as a string or a JSON number",
                    ),
                };
                let l = count.log2();
                (
                    l,
                    format!("{how}{}: {} bits", minus_zero(zero), bits_text(l)),
                )
            }
            ValueType::Number => {
                let nonnegative = rule.min.is_some_and(|m| m >= 0.0);
                let text = count::number_pattern(nonnegative);
                let key = format!("number\0{nonnegative}");
                let counted = match self.cache.languages.get(&key) {
                    Some(c) => c.clone(),
                    None => {
                        let c = count::count(
                            &text,
                            false,
                            Some(count::NUMBER_BYTES),
                            None,
                            Mode::Strings,
                        );
                        self.cache.languages.insert(key, c.clone());
                        c
                    }
                };
                let lit =
                    counted.map_err(|_| "number literals could not be counted".to_string())?;
                let sign = if nonnegative {
                    ", no sign but on zero"
                } else {
                    ""
                };
                match ctx {
                    Ctx::Json => (
                        lit.log2,
                        format!(
                            "canonical number literals (17 significant digits, 25 bytes{sign}): {} bits",
                            bits_text(lit.log2)
                        ),
                    ),
                    Ctx::Any => {
                        let (n, zero) = integers(rule);
                        let ints = (2.0 * n + f64::from(u8::from(zero))).log2();
                        let l = log_add(lit.log2, ints);
                        (
                            l,
                            format!(
                                "a doubleValue literal (17 significant digits, 25 bytes{sign}) or an intValue in range: {} bits",
                                bits_text(l)
                            ),
                        )
                    }
                }
            }
            ValueType::Boolean => (1.0, "true or false: 1 bit".into()),
            ValueType::Null => (0.0, "null only".into()),
            ValueType::Array | ValueType::Object => (f64::NEG_INFINITY, "never a scalar".into()),
        })
    }

    /// A member of a JSON object (cf, evidence) under `rule`, at `path`.
    fn member(&mut self, path: &str, rule: &FieldRule) {
        let optional = !rule.required;
        let extra = u8::from(optional) + u8::from(rule.nullable || rule.ty == ValueType::Null);
        match rule.ty {
            ValueType::Object | ValueType::Array => {
                if extra > 0 {
                    let l = f64::from(1 + extra).log2();
                    let what = match (optional, rule.nullable) {
                        (true, true) => "absent, null or present",
                        (true, false) => "absent or present",
                        _ => "null or present",
                    };
                    self.part(path, l, format!("{what}: log2({}) bits", 1 + extra));
                }
                if rule.ty == ValueType::Object {
                    let empty = FieldSet::default();
                    self.object(path, rule.fields.as_ref().unwrap_or(&empty), false);
                } else {
                    self.array(path, rule);
                }
            }
            _ => match self.scalar(rule, Ctx::Json, false) {
                Ok((l, how)) => {
                    let total = log_add(l, f64::from(extra).log2());
                    let note = match (optional, rule.nullable) {
                        (true, true) => ", absent or null",
                        (true, false) => ", or absent",
                        (false, true) => ", or null",
                        _ => "",
                    };
                    self.part(path, total.max(0.0), format!("{how}{note}"));
                }
                Err(why) => self.unbounded(path, format!("`{path}`: {why}")),
            },
        }
    }

    /// An array member's elements.
    fn array(&mut self, path: &str, rule: &FieldRule) {
        let Some(items) = rule.items.as_deref() else {
            self.part(path, 0.0, "no element rule: only an empty array".into());
            return;
        };
        let Some(m) = rule.max_items else {
            self.unbounded(path, format!("`{path}` has no max_items"));
            return;
        };
        let elem = format!("{path}[]");
        match items.ty {
            ValueType::Object | ValueType::Array => {
                self.part(
                    &format!("{path}: length"),
                    ((m + 1) as f64).log2(),
                    format!("0 to {m} elements: log2({})", m + 1),
                );
                self.repeated(m, "elements", |w| w.member(&elem, &required(items)));
            }
            _ => match self.scalar(items, Ctx::Json, false) {
                Ok((l, how)) => {
                    let l = log_add(
                        l,
                        if items.nullable {
                            0.0
                        } else {
                            f64::NEG_INFINITY
                        },
                    );
                    let total = log2_sequences(l, m);
                    self.part(
                        &elem,
                        total,
                        format!("0 to {m} elements, each {how}: {} bits", bits_text(total)),
                    );
                }
                Err(why) => self.unbounded(&elem, format!("`{elem}`: {why}")),
            },
        }
    }

    /// The members of a JSON object: each one's part and their order.
    fn object(&mut self, path: &str, fields: &FieldSet, top: bool) {
        let dot = if path.is_empty() {
            String::new()
        } else {
            format!("{path}.")
        };
        for (name, rule) in fields.iter() {
            let p = format!("{dot}{}", crate::finding::escape_key(name));
            if top && rule.ty == ValueType::String && self.pseudonymized(name) {
                // The pseudonym keeps the shape only (module docs).
                self.member_pseudonym(&p, rule);
            } else {
                self.member(&p, rule);
            }
        }
        let n = fields.len();
        let order = if path.is_empty() {
            "key order".to_string()
        } else {
            format!("{path}: key order")
        };
        self.part(
            &order,
            log2_factorial(n),
            format!("{n} members in any order: log2({n}!)"),
        );
    }

    fn member_pseudonym(&mut self, path: &str, rule: &FieldRule) {
        let extra = u8::from(!rule.required) + u8::from(rule.nullable);
        match self.strings(rule, None, true) {
            Ok((l, how)) => {
                let total = log_add(l, f64::from(extra).log2());
                self.part(path, total.max(0.0), how);
            }
            Err(why) => self.unbounded(path, format!("`{path}`: {why}")),
        }
    }

    /// An OTLP message of the crate's table, in a record of spans or (when
    /// `logs`) of log records.
    fn message(&mut self, msg: &'static otlp_schema::Message, logs: bool) {
        let path = otlp::path(msg.name);
        let mut keys = 0usize;
        for &otlp_schema::Field { key, kind, .. } in msg.fields {
            let p = format!("{path}.{key}");
            keys += 1;
            match kind {
                FieldKind::Hex(digits) => {
                    if self.pseudonymized(key) {
                        self.part(
                            &p,
                            3f64.log2(),
                            "pseudonymized id: absent, empty or a pseudonym".into(),
                        );
                    } else {
                        let b = 4.0 * digits as f64;
                        // Absent, empty, or one of 16^digits.
                        let l = log_add(b, 1.0);
                        self.part(
                            &p,
                            l,
                            format!("{digits} hex digits ({b} bits), empty or absent"),
                        );
                    }
                }
                FieldKind::Nanos => self.part(
                    &p,
                    log_add(65.0, 0.0),
                    "u64 nanoseconds, as a string or a JSON number (65 bits), or absent".into(),
                ),
                FieldKind::Uint32 => self.part(
                    &p,
                    log_add(33.0, 0.0),
                    "u32 count, as a string or a JSON number (33 bits), or absent".into(),
                ),
                FieldKind::Flags(mask) => {
                    let b = f64::from(mask.count_ones()) + 1.0;
                    self.part(
                        &p,
                        log_add(b, 0.0),
                        format!(
                            "the {} defined flag bits, string or number, or absent",
                            mask.count_ones()
                        ),
                    );
                }
                FieldKind::Enum(names) => {
                    let n = names.len();
                    let l = log_add((2.0 * n as f64).log2(), 0.0);
                    self.part(&p, l, format!("{n} values, by number or name, or absent"));
                }
                FieldKind::Text(Text::Empty) => {
                    self.part(&p, 1.0, "empty only: absent or present".into())
                }
                FieldKind::Text(Text::Severity) => {
                    let n = otlp::severity_texts();
                    let l = log_add(n.log2(), 0.0);
                    self.part(
                        &p,
                        l,
                        format!("{n} level words (any case, digit 2-4) or empty, or absent"),
                    );
                }
                FieldKind::Rule(which) => {
                    let s = &self.policy.standard.otlp.structure;
                    let rule = match which {
                        Structural::SchemaUrl => s.schema_url.clone(),
                        Structural::ScopeName => s.scope_name.clone(),
                        Structural::ScopeVersion => s.scope_version.clone(),
                        Structural::EventName => s.event_name.clone(),
                    };
                    match self.strings(&rule, None, false) {
                        // The empty string always passes; absent too.
                        Ok((l, how)) => {
                            let total = log_add(l, 1.0);
                            self.part(&p, total, format!("{how}, empty or absent"));
                        }
                        Err(why) => self.unbounded(&p, format!("`{p}`: {why}")),
                    }
                }
                FieldKind::TraceState => self.trace_state(&p),
                FieldKind::SpanName => {
                    let o = &self.policy.standard.otlp;
                    let names = o.span_names.len() as f64;
                    let rule = o.structure.span_name.clone();
                    match self.strings(&rule, None, false) {
                        Ok((l, how)) => {
                            let total = log_add(log_add(l, names.log2()), 0.0);
                            self.part(
                                &p,
                                total,
                                format!(
                                    "{names} span_names, or the span_name rule: {how}; or absent"
                                ),
                            );
                        }
                        Err(why) => self.unbounded(&p, format!("`{p}`: {why}")),
                    }
                }
                FieldKind::Attributes(place) => self.attributes(&p, place),
                FieldKind::Body => {
                    // Content: stripped at standard level, never written.
                    keys -= 1;
                }
                FieldKind::Object(inner) => {
                    self.part(&p, 1.0, "absent or present".into());
                    self.message(inner, logs);
                }
                // The array of the other signal: absent or empty.
                FieldKind::Array(inner, Repeated::Resources)
                    if (inner.name == Name::ResourceLogs) != logs =>
                {
                    self.part(&p, 1.0, "absent or an empty array".into());
                }
                // The path to the one unit counted.
                FieldKind::Array(
                    inner,
                    Repeated::Resources | Repeated::Scopes | Repeated::Spans | Repeated::LogRecords,
                ) => self.message(inner, logs),
                FieldKind::Array(inner, repeated) => {
                    let m = self.limit(repeated);
                    self.part(
                        &format!("{p}: count"),
                        ((m + 1) as f64).log2() + 1.0,
                        format!("absent, or 0 to {m} elements: log2({}) + 1", m + 1),
                    );
                    self.repeated(m, otlp::note(repeated), |w| w.message(inner, logs));
                }
                // The attribute and value messages' own kinds: no message
                // of a request's structure holds them.
                FieldKind::Key
                | FieldKind::Value
                | FieldKind::Values
                | FieldKind::Pairs
                | FieldKind::Case(_) => {
                    self.unbounded(&p, format!("`{p}`: not a structural field"));
                }
            }
        }
        self.part(
            &format!("{path}: key order"),
            log2_factorial(keys),
            format!("{keys} members in any order: log2({keys}!)"),
        );
    }

    fn limit(&self, r: Repeated) -> usize {
        let l = &self.policy.standard.otlp.limits;
        match r {
            Repeated::Events => l.events,
            Repeated::Links => l.links,
            // One unit is counted: one of each group on its path.
            Repeated::Resources | Repeated::Scopes | Repeated::Spans | Repeated::LogRecords => 1,
        }
    }

    /// A W3C trace state: only members on `[standard.otlp.trace_state]`
    /// pass, each held to its rule, at most 32, joined canonically.
    fn trace_state(&mut self, path: &str) {
        let set = self.policy.standard.otlp.trace_state.clone();
        if set.is_empty() {
            self.part(
                path,
                log_add(0.0, 0.0),
                "every member stripped: empty or absent".into(),
            );
            return;
        }
        let mut member = f64::NEG_INFINITY;
        for (name, rule) in set.iter() {
            match self.strings(rule, Some(256), false) {
                Ok((l, _)) => member = log_add(member, l),
                Err(why) => {
                    self.unbounded(
                        path,
                        format!(
                            "`{path}` member `{}`: {why}",
                            crate::finding::escape_key(name)
                        ),
                    );
                    return;
                }
            }
        }
        let total = log_add(log2_sequences(member, 32), 0.0);
        self.part(
            path,
            total,
            format!(
                "0 to 32 members of {} allowlisted keys ({} bits each), or absent",
                set.len(),
                bits_text(member)
            ),
        );
    }

    /// An attribute list under the allowlist of `place`.
    fn attributes(&mut self, path: &str, place: Place) {
        let o: &OtlpRules = &self.policy.standard.otlp;
        let set = match place {
            Place::Resource => o.resource_attributes.clone(),
            Place::Scope => o.scope_attributes.clone(),
            Place::Span => o.span_attributes.clone(),
            Place::Event => o.event_attributes.clone(),
            Place::Link => o.link_attributes.clone(),
            Place::Log => o.log_attributes.clone(),
        };
        let cap = o.limits.attributes;
        self.part(path, 1.0, "absent or present".into());
        for (name, rule) in set.iter() {
            let p = format!("{path}[\"{}\"]", crate::finding::escape_key(name));
            match self.attribute(name, rule) {
                Ok((l, how)) => {
                    let total = log_add(l, 0.0);
                    self.part(&p, total, format!("{how}; or absent"));
                }
                Err(why) => self.unbounded(&p, format!("`{p}`: {why}")),
            }
        }
        let k = set.len().min(cap);
        self.part(
            &format!("{path}: order"),
            log2_factorial(k),
            format!("at most {k} attributes in any order: log2({k}!)"),
        );
    }

    /// The choices of one present attribute (`{"key":..,"value":..}`).
    fn attribute(&mut self, name: &str, rule: &FieldRule) -> Result<(f64, String), String> {
        // `{"key":K}`, `{"key":K,"value":{}}` and the reverse order.
        let null = if rule.nullable || rule.ty == ValueType::Null {
            3f64.log2()
        } else {
            f64::NEG_INFINITY
        };
        let (l, how) = match rule.ty {
            ValueType::Null => (f64::NEG_INFINITY, "null".to_string()),
            ValueType::Object => (f64::NEG_INFINITY, "an object never passes".to_string()),
            ValueType::Array => {
                let items = rule.items.as_deref().filter(|i| {
                    !matches!(i.ty, ValueType::Array | ValueType::Object | ValueType::Null)
                });
                let Some(items) = items else {
                    return Ok((null, "no scalar element rule: null only".into()));
                };
                let Some(m) = rule.max_items else {
                    return Err("an array attribute without max_items".into());
                };
                let (l, how) = self.scalar(items, Ctx::Any, false)?;
                let total = log2_sequences(l, m) + 1.0;
                // A nullable array may also have no `value`.
                let total = if rule.nullable {
                    log_add(total, 0.0)
                } else {
                    total
                };
                return Ok((
                    total,
                    format!(
                        "0 to {m} values, each {how}; key and value in either order: {} bits",
                        bits_text(total)
                    ),
                ));
            }
            _ => {
                let shapes = rule.ty == ValueType::String && self.pseudonymized(name);
                let (l, how) = self.scalar(rule, Ctx::Any, shapes)?;
                (l + 1.0, format!("{how}; key and value in either order"))
            }
        };
        let total = log_add(l, null);
        let note = if null.is_finite() {
            "; or null (3 spellings)"
        } else {
            ""
        };
        Ok((total, format!("{how}{note}")))
    }
}

fn minus_zero(zero: bool) -> &'static str {
    if zero { ", and the spelling -0" } else { "" }
}

/// `rule` as a required member (an array's element is always there).
fn required(rule: &FieldRule) -> FieldRule {
    FieldRule {
        required: true,
        ..rule.clone()
    }
}

pub mod otlp;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod figures;
