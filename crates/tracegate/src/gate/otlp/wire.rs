//! The OTLP fast path on the protobuf wire: a standard-level judgement of
//! an export request as it arrived, without writing its OTLP/JSON line.
//!
//! `serve` turns a protobuf request into its line (`record::otlp_proto::
//! transcode`) and judges the line per sink; a sink whose output is
//! protobuf then cuts the stripped fields out of the request
//! (`record::otlp_proto::cut`). For a standard-level sink that is a line
//! built and walked only to learn what to cut. [`WireOtlp::judge`] walks
//! the request once instead, with the walker of [`super::fast`] (its
//! schema tables, allowlist guesses, memo, findings and strips: every
//! check is that module's, reached through the same methods), and says
//! which fields to cut ([`WireOtlp::project`]).
//!
//! It answers only where both the transcode and the JSON fast path would:
//! the request in the encoding the transcode takes (known fields in
//! ascending order, singular ones once, shortest varints, valid UTF-8, a
//! bool of 0 or 1, enums and `uint32` in range, no NaN payload, one
//! member per `AnyValue`), every attribute value a scalar the line says
//! as the JSON walk reads it (no `bytesValue`, no nested value, no
//! infinite or NaN double), every string the walk checks one the line
//! holds unescaped. Anything else returns `None`, and the caller takes
//! the line's path.
//!
//! **Invariant:** when [`WireOtlp::judge`] answers, [`super::fast::FastOtlp::judge`]
//! on the transcoded line answers with the same verdict, the same
//! findings in the same order, the same `stripped` and `has_content`, and
//! [`WireOtlp::project`] is `cut::project` of the line's pieces and the
//! JSON path's cuts, byte for byte (property and attack tests in
//! `wire_tests`).
//!
//! The walk reads each message once, judging each field as it comes off
//! the wire (a repeated one item by item, as its run is read). The wire
//! order is ascending field number (the reader takes no other), and the
//! table's (the line's) differs from it only where a field that merely
//! passes or declines sits (a span's `flags`, a log record's
//! `observedTimeUnixNano`), so findings, cuts and frames still come in the
//! line's order; a table change that breaks this fails the build
//! (`IN_WIRE_ORDER`). Like the JSON path it does not know the line's
//! length: the caller holds the request to `max_line_bytes` some other
//! way.
//!
//! On the way it counts the request's structure as
//! `record::otlp_proto::bounds::check_protobuf` does (every message it
//! enters, against the caller's `[server]` bounds), so `serve` need not
//! walk a request it answers for a second time: **when it answers**,
//! `check_protobuf` with the same bounds gives `Ok` with the same counts
//! ([`WireOtlp::counts`]); at the first bound passed it declines, and the
//! caller's `check_protobuf` says which (held by `wire_tests`).

use super::fast::{Any, Context, FastOtlp, Step, Taken, Walker, enum_ok, flags_ok};
use super::schema::{FieldKind, Message, text_ok};
use crate::finding::Finding;
use crate::gate::{Gate, Judgement};
use crate::otlp_schema::{ANY_VALUE, Case, Field, KEY_VALUE, LOGS, TRACES};
use crate::policy::StructureLimits;
use crate::record::Format;
use crate::record::otlp_proto::bounds::{Counter, Counts, Signal};
use crate::record::otlp_proto::cut::cut_fields;
use crate::record::otlp_proto::transcode::{
    Fields, Wire, bool_value, bytes, double_value, enum_value, fixed32, fixed64, json_plain,
    string, uint32, varint,
};

/// Judging each field as it comes off the wire gives the findings in the
/// line's order: checked when the crate is built ([`in_wire_order`]), so a
/// change to the OTLP table that breaks it fails the build rather than
/// the order.
const IN_WIRE_ORDER: bool = in_wire_order(&TRACES) && in_wire_order(&LOGS);
const _: () = assert!(IN_WIRE_ORDER);

/// Whether judging `m` (and every message it holds) field by field in
/// ascending field number, the only order [`Fields`] reads, does what
/// judging it in the table's order (the line's) does. A field that only
/// passes or declines (an id, a number, an enum, flags, a fixed text, a
/// rule) may be judged anywhere: a decline is the whole request's. The
/// rest (a span name through the memo; a message, a list or a log body,
/// which push findings, cuts and frames) must come in the table's order
/// among themselves. Only the span's `flags` and the log record's
/// `observedTimeUnixNano` are out of number order in the table, and both
/// only pass or decline.
const fn in_wire_order(m: &Message) -> bool {
    let fields = m.fields;
    if !fields_in_wire_order(fields) {
        return false;
    }
    let mut i = 0;
    while i < fields.len() {
        if let FieldKind::Object(c) | FieldKind::Array(c, _) = fields[i].kind
            && !in_wire_order(c)
        {
            return false;
        }
        i += 1;
    }
    true
}

/// [`in_wire_order`] for one message's `fields` (in the table's order):
/// every two that act are in ascending number.
pub(super) const fn fields_in_wire_order(fields: &[Field]) -> bool {
    const fn acts(kind: FieldKind) -> bool {
        !matches!(
            kind,
            FieldKind::Hex(_)
                | FieldKind::Nanos
                | FieldKind::Uint32
                | FieldKind::Flags(_)
                | FieldKind::Enum(_)
                | FieldKind::Text(_)
                | FieldKind::Rule(_)
                | FieldKind::TraceState
        )
    }
    let mut i = 0;
    while i < fields.len() {
        let mut j = i + 1;
        while j < fields.len() {
            if acts(fields[i].kind) && acts(fields[j].kind) && fields[j].number < fields[i].number {
                return false;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

/// No structure bound: what [`Gate::judge_wire`] counts against.
pub(crate) const UNBOUNDED: StructureLimits = StructureLimits {
    max_spans: usize::MAX,
    max_log_records: usize::MAX,
    max_events: usize::MAX,
    max_links: usize::MAX,
    max_attributes: usize::MAX,
    max_nesting: usize::MAX,
};

/// The wire judge's buffers, reused from request to request: the JSON
/// fast path's (its memo included) and the frames of the last request.
#[derive(Debug, Default)]
pub struct WireOtlp {
    fast: FastOtlp,
    /// The fields of the last judged request that hold a message a cut
    /// may lie in (resources, scopes, groups, spans, events, links,
    /// attributes, log bodies), each after its members (with
    /// [`Context::project`]).
    frames: Vec<(usize, usize)>,
    /// The structure of the last request judged (when it answered).
    counts: Counts,
}

impl WireOtlp {
    /// Judge the protobuf export request `body` of `signal` at standard
    /// level, pushing findings onto `findings` and counting its structure
    /// against `limits`; `None` (with `findings` as it was) when the
    /// request's line must be judged instead, or a bound is passed.
    pub(crate) fn judge(
        &mut self,
        cx: Context<'_>,
        signal: Signal,
        body: &[u8],
        limits: &StructureLimits,
        findings: &mut Vec<Finding>,
    ) -> Option<Taken> {
        let base = findings.len();
        self.frames.clear();
        let mut w = WireWalk {
            w: self.fast.walker(cx, body, findings),
            frames: &mut self.frames,
            counter: Counter::new(limits),
        };
        let request = match signal {
            Signal::Traces => &TRACES,
            Signal::Logs => &LOGS,
        };
        // A request without resources is `{}`, which the JSON path leaves
        // to the full path (no signal list).
        let taken = w
            .object(request, body)
            .filter(|&seen| seen != 0)
            .map(|_| Taken {
                stripped: w.w.stripped,
                has_content: w.w.has_content,
                items: w.w.items,
            });
        let counts = w.counter.counts();
        match taken {
            Some(_) => self.counts = counts,
            None => findings.truncate(base),
        }
        taken
    }

    /// The structure of the last request [`WireOtlp::judge`] answered for,
    /// as `check_protobuf` counts it.
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// The last judged request `body` without the fields it stripped,
    /// each enclosing message's length rewritten (the request itself when
    /// nothing was stripped); `None` when the cut cannot be made (then
    /// encode the gated line instead). Judged with [`Context::project`].
    pub fn project(&self, body: &[u8]) -> Option<Vec<u8>> {
        cut_fields(body, self.frames.iter().copied(), self.fast.cuts.clone())
    }
}

impl Gate {
    /// Judge the protobuf export request `body` of `signal` at standard
    /// level on the wire ([`WireOtlp`], the caller's buffers for this
    /// gate), for a sink whose output is protobuf: the same judgement,
    /// findings and item counts as [`Gate::judge`] of the request's line
    /// at standard level (when the line is within `limits.max_line_bytes`,
    /// which the caller makes sure of), with [`Gate::output`] the request
    /// with the stripped fields cut out when it is
    /// [`Verdict::Rewritten`](crate::gate::Verdict::Rewritten). `None` when the request must go the line's
    /// way (the gate pseudonymizes, or the wire judge declines).
    pub fn judge_wire(
        &mut self,
        wire: &mut WireOtlp,
        line_no: u64,
        signal: Signal,
        body: &[u8],
    ) -> Option<Judgement> {
        self.judge_wire_within(wire, line_no, signal, body, &UNBOUNDED)
    }

    /// [`Gate::judge_wire`], counting the request's structure on the way
    /// against `limits` (the `[server]` bounds): `None` at the first bound
    /// passed as well. When it answers, [`WireOtlp::counts`] is what
    /// `check_protobuf(body, signal, limits)` gives, and that is `Ok`: a
    /// caller need not walk the request again to hold it to its bounds.
    pub fn judge_wire_within(
        &mut self,
        wire: &mut WireOtlp,
        line_no: u64,
        signal: Signal,
        body: &[u8],
        limits: &StructureLimits,
    ) -> Option<Judgement> {
        // SECURITY: as for the JSON fast path, not for a sink that
        // pseudonymizes identifiers.
        if !(self.redaction.key.is_none() || self.redaction.pseudonymize.is_empty())
            || self.forced.is_some_and(|f| f != Format::Otlp)
        {
            return None;
        }
        self.findings.clear();
        self.out.clear();
        self.fast_projected = false;
        self.evidence_hit = false;
        self.reset_otlp();
        let cx = Context {
            policy: &self.policy,
            detectors: &self.detectors,
            line: line_no,
            project: true,
            findings: self.collect_findings,
            paths: self.strip_paths,
        };
        let taken = wire.judge(cx, signal, body, limits, &mut self.findings)?;
        if taken.stripped > 0 {
            let Some(out) = wire.project(body) else {
                self.findings.clear();
                return None;
            };
            self.out = out;
        }
        if !self.collect_findings {
            self.findings.clear();
        }
        Some(self.otlp_taken(taken))
    }
}

/// One walk over one protobuf request, driving the JSON fast path's
/// walker (whose `b` is the request).
struct WireWalk<'a, 'b> {
    w: Walker<'a, 'b>,
    frames: &'b mut Vec<(usize, usize)>,
    /// The structure so far, as `check_protobuf` counts it.
    counter: Counter<'b>,
}

impl<'a> WireWalk<'a, '_> {
    /// The offset in the request of `s`, a slice of it.
    fn off(&self, s: &[u8]) -> usize {
        (s.as_ptr() as usize).wrapping_sub(self.w.b.as_ptr() as usize)
    }

    /// `s`, a slice of the request, as a range of it.
    fn range(&self, s: &[u8]) -> (usize, usize) {
        let at = self.off(s);
        (at, at + s.len())
    }

    /// Count entering the message `m` in `parent` (a value nesting of
    /// none: the walk declines nested values); `None` past a bound.
    fn enter(&mut self, m: &'static Message, parent: &'static Message) -> Option<()> {
        self.counter.enter(m, parent, 0).ok()
    }

    /// Record the field `s` (a slice of the request) as a frame.
    fn frame(&mut self, s: &[u8]) {
        if self.w.cx.project {
            let r = self.range(s);
            self.frames.push(r);
        }
    }

    /// The message `msg` whose bytes are `body`, judged field by field as
    /// its fields come off the wire (read once: see [`IN_WIRE_ORDER`]). The
    /// set of fields present (a bit per table entry).
    fn object(&mut self, msg: &'static Message, body: &'a [u8]) -> Option<u32> {
        let mut f = Fields::new(body);
        let mut seen = 0u32;
        // The field after the last one judged. A singular field may not
        // come again, so the reader is told none repeats; a run reads its
        // own items and hands back the field after it.
        let mut next = f.next(|_| false).ok()?;
        while let Some((n, w)) = next {
            let (i, field) = msg.numbered(n)?;
            seen |= 1u32.checked_shl(u32::try_from(i).ok()?)?;
            next = match field.kind {
                FieldKind::Array(m, limit) => {
                    let max = super::limit(self.w.cx.policy, limit);
                    self.run(field.key, max, body, &mut f, (n, w), |walk, i, item, _| {
                        walk.enter(m, msg)?;
                        walk.w.path.push(Step::Index(i));
                        walk.object(m, bytes(item).ok()?)?;
                        walk.w.path.pop();
                        if m.is_item() {
                            walk.w.items = walk.w.items.saturating_add(1);
                        }
                        Some(())
                    })?
                }
                FieldKind::Attributes(place) => {
                    let max = self.w.attribute_max();
                    self.w.keys.clear();
                    self.w.seen.clear();
                    self.run(field.key, max, body, &mut f, (n, w), |walk, i, kv, item| {
                        walk.enter(&KEY_VALUE, msg)?;
                        walk.attribute(place, i, bytes(kv).ok()?, item)
                    })?
                }
                kind => {
                    let whole = body.get(f.field_start..f.at)?;
                    self.field(msg, field.key, kind, w, whole)?;
                    f.next(|_| false).ok()?
                }
            };
        }
        Some(seen)
    }

    /// The run of the repeated field `key` (a list of messages or of
    /// attributes) of a message whose bytes are `body`, read by `f`, its
    /// first item `first`: each item judged by `judge` (given the item's
    /// index, its value and its whole field's bytes) as it is read, at
    /// most `max`, then framed. The field after the run.
    fn run(
        &mut self,
        key: &'static str,
        max: usize,
        body: &'a [u8],
        f: &mut Fields<'a>,
        (number, first): (u32, Wire<'a>),
        mut judge: impl FnMut(&mut Self, usize, Wire<'a>, &'a [u8]) -> Option<()>,
    ) -> Option<Option<(u32, Wire<'a>)>> {
        self.w.path.push(Step::Key(key));
        let mut n = 0;
        let mut item = first;
        let next = loop {
            if n >= max {
                return None;
            }
            let whole = body.get(f.field_start..f.at)?;
            judge(self, n, item, whole)?;
            self.frame(whole);
            n += 1;
            match run_item(f, number)? {
                Ok(w) => item = w,
                Err(next) => break next,
            }
        };
        self.w.path.pop();
        Some(next)
    }

    /// One field of a message (`whole`: its bytes, a repeated field's
    /// whole run), held to what the JSON walk checks of its member; a
    /// scalar at its default value is not in the line and checked for
    /// nothing but its encoding.
    fn field(
        &mut self,
        parent: &'static Message,
        key: &'static str,
        kind: FieldKind,
        w: Wire<'a>,
        whole: &'a [u8],
    ) -> Option<()> {
        match kind {
            FieldKind::Hex(n) => {
                // The line's lowercase hex, two digits a byte.
                let id = bytes(w).ok()?;
                if !id.is_empty() && id.len().checked_mul(2)? != n {
                    return None;
                }
            }
            FieldKind::Nanos => {
                fixed64(w).ok()?;
            }
            FieldKind::Uint32 => {
                uint32(w).ok()?;
            }
            FieldKind::Flags(mask) => {
                let n = fixed32(w).ok()?;
                if n != 0 && !flags_ok(mask, n.into()) {
                    return None;
                }
            }
            FieldKind::Enum(names) => {
                let n = enum_value(w).ok()?;
                // A negative number is `-n` in the line: not the walk's.
                if n != 0 && !u64::try_from(n).is_ok_and(|n| enum_ok(names, n)) {
                    return None;
                }
            }
            FieldKind::Text(t) => {
                // (A status message must be empty: `text_ok` refuses any
                // other, as the JSON walk refuses any but `""`.)
                let s = string(w).ok()?;
                if !(s.is_empty() || (json_plain(s.as_bytes()) && text_ok(t, s))) {
                    return None;
                }
            }
            FieldKind::Rule(which) => {
                let (s, plain) = text(w)?;
                if !(s.is_empty() || (plain && self.w.structural_ok(which, s))) {
                    return None;
                }
            }
            // A non-empty trace state goes to the full path.
            FieldKind::TraceState => {
                if !string(w).ok()?.is_empty() {
                    return None;
                }
            }
            FieldKind::SpanName => {
                let (s, plain) = text(w)?;
                if !(s.is_empty() || (plain && self.w.span_name_ok(s))) {
                    return None;
                }
            }
            FieldKind::Object(m) => {
                self.enter(m, parent)?;
                self.w.path.push(Step::Key(key));
                self.object(m, bytes(w).ok()?)?;
                self.w.path.pop();
                if m.holds_attributes() {
                    self.frame(whole);
                }
            }
            FieldKind::Body => {
                // Content, stripped whatever it holds, but a value the
                // walk reads.
                self.enter(&ANY_VALUE, parent)?;
                self.any(bytes(w).ok()?)?;
                self.w.path.push(Step::Key(key));
                let cut = self.range(whole);
                self.w.body(cut);
                self.w.path.pop();
                self.frame(whole);
            }
            // Read by `object` as runs; only inside attributes and values,
            // which this walk reads itself.
            FieldKind::Array(..)
            | FieldKind::Attributes(_)
            | FieldKind::Key
            | FieldKind::Value
            | FieldKind::Values
            | FieldKind::Pairs
            | FieldKind::Case(_) => return None,
        }
        Some(())
    }

    /// One `KeyValue` (`kv`, its message; `item`, the whole field), the
    /// `at`-th of its list at `place`: read as the transcode reads it,
    /// judged by the JSON walk's attribute check.
    fn attribute(
        &mut self,
        place: super::schema::Place,
        at: usize,
        kv: &'a [u8],
        item: &'a [u8],
    ) -> Option<()> {
        let mut f = Fields::new(kv);
        // The key and whether it is plain; the value.
        let mut key: Option<(&'a [u8], bool)> = None;
        let mut value: Option<&'a [u8]> = None;
        while let Some((n, w)) = f.next(|_| false).ok()? {
            match KEY_VALUE.numbered(n)?.1.kind {
                FieldKind::Key => key = Some(text(w)?),
                FieldKind::Value => value = Some(bytes(w).ok()?),
                _ => return None,
            }
        }
        // The line writes the key (empty when absent) as a JSON string:
        // the walk reads only one without escapes.
        let (k, plain) = key.unwrap_or((&[], true));
        if !plain {
            return None;
        }
        let ks = match key {
            Some((k, _)) => self.off(k),
            None => self.off(kv),
        };
        let any = match value {
            Some(v) => {
                self.enter(&ANY_VALUE, &KEY_VALUE)?;
                self.any(v)?
            }
            None => Any::Empty,
        };
        let cut = self.range(item);
        self.w
            .judged_attribute(place, at, (ks, ks + k.len()), any, cut)
    }

    /// An `AnyValue` as the JSON walk reads its line: empty or one scalar
    /// member; `None` for anything else (a nested value, bytes, a double
    /// the line writes as a string, two members).
    fn any(&mut self, v: &'a [u8]) -> Option<Any<'a>> {
        let mut f = Fields::new(v);
        let Some((n, w)) = f.next(|_| false).ok()? else {
            return Some(Any::Empty);
        };
        if f.next(|_| false).ok()?.is_some() {
            return None;
        }
        match ANY_VALUE.numbered(n)?.1.kind {
            FieldKind::Case(Case::String) => {
                let (s, plain) = text(w)?;
                Some(Any::Str(s, !plain))
            }
            FieldKind::Case(Case::Bool) => bool_value(w).ok().map(|_| Any::Bool),
            FieldKind::Case(Case::Int) => Some(Any::Int(varint(w).ok()? as i64)),
            FieldKind::Case(Case::Double) => {
                let d = double_value(w).ok()?;
                d.is_finite().then_some(Any::Double(d))
            }
            _ => None,
        }
    }
}

/// [`plain_ascii`] of a string shorter than 16 bytes (most keys, names
/// and ids), read as two 8-byte words that overlap (or, under 8 bytes,
/// two of 4, or its first, middle and last byte padded with plain ones)
/// and tested a word at a time. It was copied into a padded 16-byte
/// block, a `memcpy` call of its own per string: 1% of serve's samples
/// under `scripts/bench-serve.sh 10 4 grpc otlp` (2026-12-07).
fn short_plain_ascii(s: &[u8]) -> bool {
    /// Eight bytes at `at` of `s` (`at + 8 <= s.len()`), else `None`.
    fn word(s: &[u8], at: usize) -> Option<u64> {
        let b = s.get(at..at.checked_add(8)?)?;
        Some(u64::from_le_bytes(<[u8; 8]>::try_from(b).ok()?))
    }
    /// Four bytes at `at` of `s`, else `None`.
    fn half(s: &[u8], at: usize) -> Option<u64> {
        let b = s.get(at..at.checked_add(4)?)?;
        Some(u64::from(u32::from_le_bytes(<[u8; 4]>::try_from(b).ok()?)))
    }
    let n = s.len();
    let (a, b) = match n {
        0 => return true,
        1..=3 => {
            let (Some(&x), Some(&y), Some(&z)) = (s.first(), s.get(n / 2), s.last()) else {
                return false;
            };
            let w = u64::from_le_bytes([x, y, z, b'a', b'a', b'a', b'a', b'a']);
            (w, w)
        }
        4..=7 => match (half(s, 0), half(s, n - 4)) {
            (Some(lo), Some(hi)) => {
                let w = lo | hi << 32;
                (w, w)
            }
            // Cannot happen (`n >= 4`); the slow path then decides.
            _ => return false,
        },
        _ => match (word(s, 0), word(s, n.saturating_sub(8))) {
            (Some(a), Some(b)) => (a, b),
            _ => return false,
        },
    };
    word_special(a) | word_special(b) == 0
}

/// Nonzero when a byte of `x` is `"`, `\\`, under 0x20 or over 0x7f.
/// (The zero-byte tests say exactly whether some byte matched, though not
/// always which: all that is asked.)
#[inline(always)]
fn word_special(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let under_space = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
    (x & HIGH)
        | under_space
        | zero(x ^ (ONES * u64::from(b'"')))
        | zero(x ^ (ONES * u64::from(b'\\')))
}

/// The field after an item of a run of field `number` read by `f`: `Ok`
/// the next item (`number` again), `Err` the field after the run (`None`
/// at the message's end); `None` when the reader declines.
#[allow(clippy::type_complexity)]
fn run_item<'a>(
    f: &mut Fields<'a>,
    number: u32,
) -> Option<Result<Wire<'a>, Option<(u32, Wire<'a>)>>> {
    match f.next(|_| true).ok()? {
        Some((n, w)) if n == number => Some(Ok(w)),
        next => Some(Err(next)),
    }
}

/// The string field `w` (valid UTF-8, else `None`) and whether the line
/// holds it unescaped ([`json_plain`]). Most strings are plain ASCII: one
/// pass over them says both.
fn text(w: Wire<'_>) -> Option<(&[u8], bool)> {
    let s = bytes(w).ok()?;
    if plain_ascii(s) {
        return Some((s, true));
    }
    let s = string(w).ok()?.as_bytes();
    Some((s, json_plain(s)))
}

/// Whether `s` is ASCII without a `"`, a `\\` or a control byte: valid
/// UTF-8 that [`json_plain`] passes (it holds no U+2028 or U+2029). Tested
/// a 16-byte block at a time (the per-byte flags ORed together, as
/// `tape::find_special`'s block test, which the compiler turns into vector
/// compares): a string shorter than a block in one or two words
/// ([`short_plain_ascii`]), the tail of a longer one as its last 16 bytes. (One
/// fold over the whole string, as it was, stayed a byte at a time: about
/// 5 instructions a byte, 1,768 a span of `serve_bench`'s request.)
pub(super) fn plain_ascii(s: &[u8]) -> bool {
    #[inline(always)]
    fn block(b: &[u8; 16]) -> u8 {
        b.iter().fold(0u8, |acc, &c| {
            acc | u8::from(c == b'"') | u8::from(c == b'\\') | u8::from(c < 0x20) | (c & 0x80)
        })
    }
    let Some(tail) = s.len().checked_sub(16) else {
        return short_plain_ascii(s);
    };
    // Out at the first block with a special byte: a loop that only ORs
    // the blocks' flags together is vectorized across blocks instead (the
    // k-th byte of 16 blocks gathered into one register), slower than the
    // plain fold.
    let mut chunks = s.chunks_exact(16);
    for c in &mut chunks {
        if let Ok(b) = <&[u8; 16]>::try_from(c)
            && block(b) != 0
        {
            return false;
        }
    }
    if !chunks.remainder().is_empty()
        && let Some(Ok(b)) = s.get(tail..).map(<&[u8; 16]>::try_from)
    {
        return block(b) == 0;
    }
    true
}
