//! The clean-evidence fast path: one pass over a nested evidence record
//! that checks it against the standard evidence allowlist **and** fills the
//! auditor's [`Record`], with no tape and no allocation.
//!
//! Like the flat cf fast path (`gate::fast`), it answers `true` only when
//! the full path (tape, allowlist walk) would pass the record verbatim with
//! no finding, and the tape-built [`Record`] would be the same; on anything
//! else (an unknown key, an escape, a value that breaks its rule, a shape
//! the auditor's model does not take, a syntax error) it answers `false`
//! and the full path judges the record and explains why.
//!
//! **Invariant:** `FastPath::clean(line) == true` implies
//! `Gate::judge` with the fast path off returns
//! [`crate::gate::Verdict::Verbatim`] with no finding and format evidence,
//! and `Record::from_tape` fills the same record. Property tests hold the
//! two paths to that.
//!
//! # Untrusted input
//!
//! Iterative over bytes, recursive over nesting only as deep as the policy's
//! rules nest (and never past the tape's depth limit); every value is
//! scanned once. No input panics.

use crate::policy::{FieldRule, FieldSet, ValueType};
use crate::record::tape::{MAX_DEPTH, scan_number_shaped, scan_string};

use super::model::{
    EVENT_FIELDS, Event, INTERVAL_FIELDS, Interval, RECORD_FIELDS, Record, Slot, Str, Want,
    parse_f64, parse_u64,
};

/// How the fast path reads one allowlisted object: per allowlist index, the
/// model slot it fills (if any), and the key order learned from the last
/// record.
#[derive(Debug, Clone, Default)]
struct ObjPlan {
    slots: Vec<Option<(Want, Slot)>>,
    /// After the key at index `i` (or at the start, index `len`), the index
    /// that followed it last time.
    order: Vec<u8>,
}

impl ObjPlan {
    fn new(fields: &FieldSet, model: &[(&str, Want, Slot)]) -> ObjPlan {
        let slots = (0..fields.len())
            .map(|i| {
                let name = fields.name(i);
                model
                    .iter()
                    .find(|m| m.0 == name)
                    .map(|&(_, want, slot)| (want, slot))
            })
            .collect();
        ObjPlan {
            slots,
            order: vec![0; fields.len() + 1],
        }
    }
}

/// Which object of the model a scan is in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum In {
    Top,
    Event,
    Interval,
    /// Anywhere else: validated, nothing kept.
    Other,
}

/// The evidence fast path for one policy's evidence allowlist, with the
/// record it last read.
#[derive(Debug)]
pub struct FastPath {
    top: ObjPlan,
    event: ObjPlan,
    interval: ObjPlan,
    /// Allowlist indexes of `events` and `derived_intervals`.
    events_at: usize,
    intervals_at: usize,
    rec: Record,
}

/// An array or object rule's nested allowlist, when it has the shape the
/// model reads: an array of objects with member rules.
fn object_items(rule: &FieldRule) -> Option<&FieldSet> {
    if rule.ty != ValueType::Array {
        return None;
    }
    let items = rule.items.as_deref()?;
    if items.ty != ValueType::Object {
        return None;
    }
    items.fields.as_ref()
}

impl FastPath {
    /// The fast path for the evidence allowlist `fields`, or `None` when it
    /// cannot apply: `events` or `derived_intervals` are not allowlisted as
    /// arrays of objects, or the allowlist names a key that format detection
    /// reads for OTLP (then a clean-looking record might not be evidence).
    pub fn new(fields: &FieldSet) -> Option<FastPath> {
        if ["resourceSpans", "resourceLogs"]
            .iter()
            .any(|k| fields.lookup(k).is_some())
        {
            return None;
        }
        let (events_at, ev) = fields.lookup("events")?;
        let (intervals_at, iv) = fields.lookup("derived_intervals")?;
        Some(FastPath {
            top: ObjPlan::new(fields, RECORD_FIELDS),
            event: ObjPlan::new(object_items(ev)?, EVENT_FIELDS),
            interval: ObjPlan::new(object_items(iv)?, INTERVAL_FIELDS),
            events_at,
            intervals_at,
            rec: Record::default(),
        })
    }

    /// Whether `line` is certainly a clean evidence record under `fields`
    /// (the allowlist this path was built for). With `forced` the line is
    /// judged as evidence whatever its `schema_version`; without, it must
    /// carry the evidence marker, as format detection wants. On `true` the
    /// record is in [`FastPath::record`].
    pub fn clean(&mut self, fields: &FieldSet, line: &[u8], forced: bool) -> bool {
        self.rec.clear();
        let mut scan = Scan {
            b: line,
            rec: &mut self.rec,
            top: &mut self.top,
            event: &mut self.event,
            interval: &mut self.interval,
            events_at: self.events_at,
            intervals_at: self.intervals_at,
        };
        let Some(end) = scan.top_object(fields) else {
            return false;
        };
        if ws(line, end) != line.len() {
            return false;
        }
        let rec = &self.rec;
        let marked = rec
            .top(super::model::Top::SchemaVersion)
            .is_some_and(|s| rec.bytes(line, s) == super::SCHEMA_VERSION.as_bytes());
        forced || marked
    }

    /// The record of the last line [`FastPath::clean`] accepted.
    pub fn record(&self) -> &Record {
        &self.rec
    }
}

fn ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// A scalar as the scan met it.
enum Scalar {
    Str(usize, usize),
    Num(usize, usize),
    Null,
    Other,
}

struct Scan<'b, 'p> {
    b: &'b [u8],
    rec: &'p mut Record,
    top: &'p mut ObjPlan,
    event: &'p mut ObjPlan,
    interval: &'p mut ObjPlan,
    events_at: usize,
    intervals_at: usize,
}

impl Scan<'_, '_> {
    fn top_object(&mut self, fields: &FieldSet) -> Option<usize> {
        let i = ws(self.b, 0);
        let end = self.object(fields, i, 1, In::Top)?;
        // The model needs both arrays.
        let have = |slot| self.rec_has(slot);
        (have(Slot::Events) && have(Slot::Intervals)).then_some(end)
    }

    /// Set by [`Scan::object`] for the top level: which arrays were read.
    fn rec_has(&self, slot: Slot) -> bool {
        match slot {
            Slot::Events => self.rec.top_arrays & 1 != 0,
            _ => self.rec.top_arrays & 2 != 0,
        }
    }

    fn plan(&mut self, at: In) -> Option<&mut ObjPlan> {
        match at {
            In::Top => Some(self.top),
            In::Event => Some(self.event),
            In::Interval => Some(self.interval),
            In::Other => None,
        }
    }

    /// The object at `i` (its `{`), held to `fields`; the offset after it.
    fn object(&mut self, fields: &FieldSet, i: usize, depth: usize, at: In) -> Option<usize> {
        let b = self.b;
        if depth > MAX_DEPTH || b.get(i) != Some(&b'{') {
            return None;
        }
        let mut i = ws(b, i + 1);
        let mut seen: u64 = 0;
        let mut prev = fields.len();
        if b.get(i) == Some(&b'}') {
            i += 1;
        } else {
            loop {
                if b.get(i) != Some(&b'"') {
                    return None;
                }
                let guess = self
                    .plan(at)
                    .and_then(|p| p.order.get(prev).copied())
                    .map_or(0, usize::from);
                let (idx, kend) = match fields.key_at(b, i + 1, guess) {
                    Some(kend) => (guess, kend),
                    None => {
                        let (kend, escaped) = scan_string(b, i).ok()?;
                        if escaped {
                            return None;
                        }
                        let (idx, _) = fields.lookup_bytes(b.get(i + 1..kend - 1)?)?;
                        (idx, kend)
                    }
                };
                // SECURITY: a key seen twice goes to the full path, which reports it.
                if idx >= 64 || seen & (1 << idx) != 0 {
                    return None;
                }
                seen |= 1 << idx;
                if let Some(p) = self.plan(at)
                    && let Some(slot) = p.order.get_mut(prev)
                {
                    *slot = u8::try_from(idx).unwrap_or(0);
                }
                prev = idx;
                i = ws(b, kend);
                if b.get(i) != Some(&b':') {
                    return None;
                }
                i = ws(b, i + 1);
                let rule = fields.rule(idx)?;
                let slot = self
                    .plan(at)
                    .and_then(|p| p.slots.get(idx).copied().flatten());
                i = match (at, slot) {
                    (In::Top, Some((Want::Array, Slot::Events))) if idx == self.events_at => {
                        self.rec.top_arrays |= 1;
                        self.array(rule, i, depth + 1, In::Event)?
                    }
                    (In::Top, Some((Want::Array, Slot::Intervals)))
                        if idx == self.intervals_at =>
                    {
                        self.rec.top_arrays |= 2;
                        self.array(rule, i, depth + 1, In::Interval)?
                    }
                    (_, Some((want, slot))) => {
                        let (end, scalar) = self.scalar(Some((fields, idx)), rule, i)?;
                        self.keep(want, slot, scalar)?;
                        end
                    }
                    (_, None) => self.value(Some((fields, idx)), rule, i, depth)?,
                };
                i = ws(b, i);
                match b.get(i) {
                    Some(b',') => i = ws(b, i + 1),
                    Some(b'}') => {
                        i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        for &r in fields.required() {
            if r >= 64 || seen & (1 << r) == 0 {
                return None;
            }
        }
        // What the model requires of an event or an interval.
        let need: &[&str] = match at {
            In::Event => &["event_name"],
            In::Interval => &["name", "start_event", "end_event", "duration"],
            In::Top | In::Other => &[],
        };
        for name in need {
            match fields.lookup(name) {
                Some((r, _)) if r < 64 && seen & (1 << r) != 0 => {}
                _ => return None,
            }
        }
        Some(i)
    }

    /// Keep a scalar in the model, if it has the type the model wants.
    fn keep(&mut self, want: Want, slot: Slot, scalar: Scalar) -> Option<()> {
        let s = |a: usize, e: usize| Str {
            start: a as u32,
            end: e as u32,
            decoded: false,
        };
        let b = self.b;
        match (want, scalar) {
            (Want::OptString | Want::OptU64, Scalar::Null) => return Some(()),
            (Want::OptString | Want::String, Scalar::Str(a, e)) => {
                let v = s(a, e);
                match slot {
                    Slot::Top(t) => self.rec.top[t as usize] = Some(v),
                    Slot::EventName => self.rec.events.last_mut()?.name = v,
                    Slot::EventUtc => self.rec.events.last_mut()?.utc = Some(v),
                    Slot::EventService => self.rec.events.last_mut()?.service = Some(v),
                    Slot::IvName => self.rec.intervals.last_mut()?.name = v,
                    Slot::IvStart => self.rec.intervals.last_mut()?.start = v,
                    Slot::IvEnd => self.rec.intervals.last_mut()?.end = v,
                    Slot::IvUnit => self.rec.intervals.last_mut()?.unit = Some(v),
                    _ => return None,
                }
            }
            (Want::OptU64, Scalar::Num(a, e)) => {
                let n = parse_u64(b.get(a..e)?)?;
                match slot {
                    Slot::Attempt => self.rec.attempt = Some(n),
                    Slot::EventMono => self.rec.events.last_mut()?.mono = Some(n),
                    _ => return None,
                }
            }
            (Want::Number, Scalar::Num(a, e)) => {
                let d = parse_f64(b.get(a..e)?)?;
                match slot {
                    Slot::IvDuration => self.rec.intervals.last_mut()?.duration = d,
                    _ => return None,
                }
            }
            _ => return None,
        }
        Some(())
    }

    /// The array at `i` held to `rule`; its elements, when they are events
    /// or intervals, read into the model.
    fn array(&mut self, rule: &FieldRule, i: usize, depth: usize, at: In) -> Option<usize> {
        let b = self.b;
        if rule.ty != ValueType::Array || depth > MAX_DEPTH || b.get(i) != Some(&b'[') {
            return None;
        }
        let items = rule.items.as_deref()?;
        let mut i = ws(b, i + 1);
        if b.get(i) == Some(&b']') {
            return Some(i + 1);
        }
        let mut n = 0usize;
        loop {
            if rule.max_items.is_some_and(|max| n >= max) {
                return None;
            }
            n += 1;
            i = match at {
                In::Event | In::Interval => {
                    let fields = items.fields.as_ref()?;
                    if items.ty != ValueType::Object {
                        return None;
                    }
                    if at == In::Event {
                        self.rec.events.push(Event::default());
                    } else {
                        self.rec.intervals.push(Interval::default());
                    }
                    self.object(fields, i, depth + 1, at)?
                }
                In::Top | In::Other => self.value(None, items, i, depth)?,
            };
            i = ws(b, i);
            match b.get(i) {
                Some(b',') => i = ws(b, i + 1),
                Some(b']') => return Some(i + 1),
                _ => return None,
            }
        }
    }

    /// Any value at `i` held to `rule` (the rule at `at` of a field set,
    /// when there is one: its simple pattern matcher is used then); the
    /// offset after it. `depth` is that of the enclosing container.
    fn value(
        &mut self,
        at: Option<(&FieldSet, usize)>,
        rule: &FieldRule,
        i: usize,
        depth: usize,
    ) -> Option<usize> {
        match self.b.get(i)? {
            b'[' => self.array(rule, i, depth + 1, In::Other),
            b'{' => {
                if rule.ty != ValueType::Object {
                    return None;
                }
                let empty = FieldSet::default();
                let fields = rule.fields.as_ref().unwrap_or(&empty);
                self.object(fields, i, depth + 1, In::Other)
            }
            _ => self.scalar(at, rule, i).map(|(end, _)| end),
        }
    }

    /// The scalar at `i` held to `rule`: as `Walk::check` would, without a
    /// finding, or `None`.
    fn scalar(
        &self,
        at: Option<(&FieldSet, usize)>,
        rule: &FieldRule,
        i: usize,
    ) -> Option<(usize, Scalar)> {
        let b = self.b;
        match b.get(i)? {
            b'"' => {
                let (end, escaped) = scan_string(b, i).ok()?;
                if escaped || rule.ty != ValueType::String {
                    return None;
                }
                let s = b.get(i + 1..end - 1)?;
                // SECURITY: a line that comes out clean is valid UTF-8:
                // outside strings only ASCII syntax is accepted, keys equal
                // allowlisted names, and each string is checked here.
                if !s.is_ascii() && std::str::from_utf8(s).is_err() {
                    return None;
                }
                let ok = match at {
                    Some((fields, idx)) => fields.string_ok(idx, s),
                    None => std::str::from_utf8(s)
                        .ok()
                        .is_some_and(|s| rule.check_string(s).is_ok()),
                };
                ok.then_some((end, Scalar::Str(i + 1, end - 1)))
            }
            b'-' | b'0'..=b'9' => {
                let (end, fraction, exponent) = scan_number_shaped(b, i).ok()?;
                if !matches!(rule.ty, ValueType::Number | ValueType::Integer) {
                    return None;
                }
                rule.check_number_bytes(b.get(i..end)?, fraction, exponent)
                    .ok()?;
                Some((end, Scalar::Num(i, end)))
            }
            b't' if b.get(i..i + 4) == Some(b"true") && rule.ty == ValueType::Boolean => {
                Some((i + 4, Scalar::Other))
            }
            b'f' if b.get(i..i + 5) == Some(b"false") && rule.ty == ValueType::Boolean => {
                Some((i + 5, Scalar::Other))
            }
            b'n' if b.get(i..i + 4) == Some(b"null")
                && (rule.nullable || rule.ty == ValueType::Null) =>
            {
                Some((i + 4, Scalar::Null))
            }
            _ => None,
        }
    }
}
