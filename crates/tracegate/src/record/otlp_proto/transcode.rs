//! Protobuf export requests written as OTLP/JSON straight from the wire,
//! without building prost's structures first (`serve`'s decode, a fifth of
//! its work per request before this).
//!
//! **Invariant:** the output is byte for byte what prost's structures
//! would give (the test oracle, `super::oracle`), or there is none and
//! the fallback ([`super::merge`]) decides. The walk takes only the encoding every protobuf
//! library writes: known fields, each message's fields in ascending
//! number, a singular field at most once, a repeated one in one run, at
//! most one member of a oneof, every value one the line says exactly.
//! Anything else (an unknown or repeated field, fields out of order, a
//! wrong wire type, bad UTF-8, a truncated value; a varint longer than it
//! needs, a bool other than 0 or 1, a `uint32` or an enum past its range,
//! a NaN with a payload) returns `None` and the fallback decides, with
//! prost's semantics (merges, last one wins, errors, truncation). A
//! property test holds the walk to the prost oracle on generated and
//! mutated requests.
//!
//! So a line the walk wrote means exactly what the request says, field
//! for field (a scalar written out at its default value, which the line
//! leaves out, means the default either way): what the gate passes whole
//! or with members stripped can go on as the request itself, or with the
//! stripped fields cut out of it ([`super::cut`]).
//!
//! The walk knows the messages from the crate's OTLP table
//! ([`crate::otlp_schema`]): it reads each message's fields by number and
//! writes them in the table's order, which is prost's struct order.

use super::super::escape::write_json_string;
use super::cut::Piece;
use super::{
    push_base64, push_decimal, push_double, push_enum, push_hex, push_int64, push_quoted_decimal,
};
use crate::otlp_schema::{
    ANY_VALUE, Case, Field, FieldKind, KEY_VALUE, LOGS, Message, Name, TRACES,
};

/// Values nested deeper than this are left to prost. Each level is two or
/// three prost messages (`AnyValue`, `KeyValueList`, `KeyValue`) below the
/// five above the first value: 16 levels stay far below prost's own limit
/// of 100, so the walk never writes a request prost would refuse as too
/// deep.
const MAX_DEPTH: u32 = 16;

/// One field's value as it is on the wire.
#[derive(Clone, Copy)]
pub(crate) enum Wire<'a> {
    Varint(u64),
    Fixed64(u64),
    Fixed32(u32),
    Len(&'a [u8]),
}

/// The fields of one message, in wire order (see [`Fields::next`]).
pub(crate) struct Fields<'a> {
    buf: &'a [u8],
    /// Where the next field starts (the end of the one last read).
    pub(crate) at: usize,
    /// Where the field last read starts (its key).
    pub(crate) field_start: usize,
    last: u32,
}

impl<'a> Fields<'a> {
    pub(crate) fn new(buf: &'a [u8]) -> Fields<'a> {
        Fields {
            buf,
            at: 0,
            field_start: 0,
            last: 0,
        }
    }

    /// The next field, `Ok(None)` at the end, `Err` on anything the prost
    /// path must judge instead. `repeated` says which field numbers may occur more than once (in
    /// one run).
    pub(crate) fn next(
        &mut self,
        repeated: impl Fn(u32) -> bool,
    ) -> Result<Option<(u32, Wire<'a>)>, ()> {
        if self.at == self.buf.len() {
            return Ok(None);
        }
        self.field_start = self.at;
        let key = self.varint()?;
        let number = u32::try_from(key >> 3).map_err(|_| ())?;
        if number < self.last || (number == self.last && !repeated(number)) {
            return Err(());
        }
        self.last = number;
        let value = match key & 7 {
            0 => Wire::Varint(self.varint()?),
            1 => Wire::Fixed64(u64::from_le_bytes(
                self.take(8)?.try_into().map_err(|_| ())?,
            )),
            2 => {
                let len = usize::try_from(self.varint()?).map_err(|_| ())?;
                Wire::Len(self.take(len)?)
            }
            5 => Wire::Fixed32(u32::from_le_bytes(
                self.take(4)?.try_into().map_err(|_| ())?,
            )),
            _ => return Err(()),
        };
        Ok(Some((number, value)))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], ()> {
        take(self.buf, &mut self.at, n)
    }

    /// A varint as prost reads it, in its shortest form only (a zero last
    /// byte says nothing the line could).
    fn varint(&mut self) -> Result<u64, ()> {
        read_varint(self.buf, &mut self.at, true)
    }
}

/// The `n` bytes of `buf` at `*at`, which moves past them.
pub(super) fn take<'a>(buf: &'a [u8], at: &mut usize, n: usize) -> Result<&'a [u8], ()> {
    let end = at.checked_add(n).ok_or(())?;
    let s = buf.get(*at..end).ok_or(())?;
    *at = end;
    Ok(s)
}

/// The varint of `buf` at `*at` as prost reads it: at most ten bytes, the
/// tenth at most 1; with `shortest`, refused when longer than it needs.
pub(super) fn read_varint(buf: &[u8], at: &mut usize, shortest: bool) -> Result<u64, ()> {
    let mut v = 0u64;
    for i in 0..10 {
        let b = *buf.get(*at).ok_or(())?;
        *at += 1;
        if i == 9 && b > 1 {
            return Err(());
        }
        v |= u64::from(b & 0x7f) << (7 * i);
        if b < 0x80 {
            return if shortest && b == 0 && i > 0 {
                Err(())
            } else {
                Ok(v)
            };
        }
    }
    Err(())
}

pub(crate) fn varint(w: Wire<'_>) -> Result<u64, ()> {
    match w {
        Wire::Varint(v) => Ok(v),
        _ => Err(()),
    }
}

pub(crate) fn fixed64(w: Wire<'_>) -> Result<u64, ()> {
    match w {
        Wire::Fixed64(v) => Ok(v),
        _ => Err(()),
    }
}

pub(crate) fn fixed32(w: Wire<'_>) -> Result<u32, ()> {
    match w {
        Wire::Fixed32(v) => Ok(v),
        _ => Err(()),
    }
}

pub(crate) fn bytes(w: Wire<'_>) -> Result<&[u8], ()> {
    match w {
        Wire::Len(b) => Ok(b),
        _ => Err(()),
    }
}

pub(crate) fn string(w: Wire<'_>) -> Result<&str, ()> {
    simdutf8::basic::from_utf8(bytes(w)?).map_err(|_| ())
}

/// An enum (`int32`) as prost reads it: the low 32 bits, as an i32
/// (negative ones included: see [`super::push_enum`]).
pub(crate) fn enum_value(w: Wire<'_>) -> Result<i32, ()> {
    let v = varint(w)?;
    let n = v as u32 as i32;
    // As the line says it: an int32 is written sign-extended.
    if i64::from(n) as u64 != v {
        return Err(());
    }
    Ok(n)
}

/// A `bool` the line can say: 0 or 1 only.
pub(crate) fn bool_value(w: Wire<'_>) -> Result<bool, ()> {
    match varint(w)? {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(()),
    }
}

/// A `double` the line can say: `NaN` in the line is one NaN, so a NaN
/// with a payload (which would be lost) is refused.
pub(crate) fn double_value(w: Wire<'_>) -> Result<f64, ()> {
    let bits = fixed64(w)?;
    let v = f64::from_bits(bits);
    if v.is_nan() && bits != f64::NAN.to_bits() {
        return Err(());
    }
    Ok(v)
}

/// Whether `s` goes into the line as it is: [`write_json_string`] escapes
/// none of its bytes (no quote, backslash or control byte, no U+2028 or
/// U+2029), so its JSON string is `s` between quotes.
pub(crate) fn json_plain(s: &[u8]) -> bool {
    crate::record::tape::find_special(s).is_none()
        && !(memchr::memchr(0xE2, s).is_some() && crate::record::canonical::has_separator(s))
}

/// A `uint32` the line can say: no bits above 32.
pub(crate) fn uint32(w: Wire<'_>) -> Result<u32, ()> {
    u32::try_from(varint(w)?).map_err(|_| ())
}

/// One field of a message as read off the wire: its value, and where it
/// is in the message (`from..to`, from its key to its end; for a repeated
/// field, from the first occurrence's key to the last one's end).
#[derive(Clone, Copy, Default)]
struct Slot<'a> {
    value: Option<Wire<'a>>,
    from: u32,
    to: u32,
}

/// An offset into a message, as a [`Slot`] keeps it (request bodies are
/// bounded far below 4 GiB).
fn offset(at: usize) -> Result<u32, ()> {
    u32::try_from(at).map_err(|_| ())
}

/// Whether a field of this kind is a repeated message field.
pub(crate) fn repeated(kind: FieldKind) -> bool {
    matches!(
        kind,
        FieldKind::Array(..) | FieldKind::Attributes(_) | FieldKind::Pairs | FieldKind::Values
    )
}

/// The JSON being written.
struct Out<'a> {
    out: Vec<u8>,
    /// The address of the request's first byte (for [`Piece`] offsets).
    base: usize,
    /// Where each repeated message and log body went, when asked for.
    pieces: Option<Vec<Piece>>,
    /// The fields of the messages being written, innermost last: one
    /// stack for the whole request, not an array per message.
    slots: Vec<Slot<'a>>,
}

/// Write `"key":` after a comma unless it is the object's first member.
#[inline]
pub(super) fn key(out: &mut Vec<u8>, first: &mut bool, k: &str) {
    if !*first {
        out.push(b',');
    }
    *first = false;
    out.push(b'"');
    out.extend_from_slice(k.as_bytes());
    out.extend_from_slice(b"\":");
}

impl<'a> Out<'a> {
    fn new(body: &[u8], mapped: bool) -> Out<'a> {
        Out {
            out: Vec::with_capacity(body.len().saturating_mul(2).saturating_add(64)),
            base: body.as_ptr() as usize,
            pieces: mapped.then(Vec::new),
            slots: Vec::with_capacity(64),
        }
    }

    /// Record that the JSON from `json_start` to the end so far was
    /// written from `field`, a whole field of the request.
    fn piece(&mut self, json_start: usize, field: &[u8]) {
        if let Some(p) = self.pieces.as_mut() {
            // Offsets into the request: `field` is a slice of it.
            let pb_start = (field.as_ptr() as usize).wrapping_sub(self.base);
            p.push(Piece {
                json: (json_start, self.out.len()),
                pb: (pb_start, pb_start + field.len()),
            });
        }
    }

    /// The message `msg` whose bytes are `body`, at value depth `depth`:
    /// its fields read off the wire (each known, in ascending number, a
    /// singular one once, a repeated one in one run), then written in the
    /// table's order.
    fn message(&mut self, msg: &'static Message, body: &'a [u8], depth: u32) -> Result<(), ()> {
        match msg.name {
            Name::AnyValue => return self.any_value(body, depth),
            Name::KeyValue => return self.key_value(body, depth),
            _ => {}
        }
        let base = self.slots.len();
        self.slots.resize(base + msg.fields.len(), Slot::default());
        let mut f = Fields::new(body);
        let is_repeated = |n| msg.numbered(n).is_some_and(|(_, x)| repeated(x.kind));
        while let Some((n, w)) = f.next(is_repeated)? {
            let (i, field) = msg.numbered(n).ok_or(())?;
            let (from, to) = (offset(f.field_start)?, offset(f.at)?);
            let slot = self.slots.get_mut(base + i).ok_or(())?;
            if !repeated(field.kind) {
                *slot = Slot {
                    value: Some(w),
                    from,
                    to,
                };
            } else {
                bytes(w)?;
                if slot.value.is_none() {
                    *slot = Slot {
                        value: Some(w),
                        from,
                        to,
                    };
                }
                slot.to = to;
            }
        }
        self.out.push(b'{');
        let mut first = true;
        for (i, field) in msg.fields.iter().enumerate() {
            let slot = *self.slots.get(base + i).ok_or(())?;
            if slot.value.is_some() {
                self.field(&mut first, field, slot, body, depth)?;
            }
        }
        self.out.push(b'}');
        self.slots.truncate(base);
        Ok(())
    }

    /// One field of the table as read into `slot` from the message
    /// `body`. Scalars at their default value are left out, as the prost
    /// path leaves them out.
    #[inline]
    fn field(
        &mut self,
        first: &mut bool,
        field: &Field,
        slot: Slot<'a>,
        body: &'a [u8],
        depth: u32,
    ) -> Result<(), ()> {
        let k = field.key;
        let value = slot.value;
        // The field's bytes in the message (a repeated field's whole run).
        let whole = || body.get(slot.from as usize..slot.to as usize).ok_or(());
        let Some(w) = value else {
            return Ok(());
        };
        match field.kind {
            FieldKind::Hex(_) => {
                let id = bytes(w)?;
                if !id.is_empty() {
                    key(&mut self.out, first, k);
                    push_hex(&mut self.out, id);
                }
            }
            FieldKind::Nanos => {
                let n = fixed64(w)?;
                if n != 0 {
                    key(&mut self.out, first, k);
                    push_quoted_decimal(&mut self.out, n);
                }
            }
            FieldKind::Uint32 => self.count(first, k, uint32(w)?),
            FieldKind::Flags(_) => self.count(first, k, fixed32(w)?),
            FieldKind::Enum(_) => {
                let n = enum_value(w)?;
                if n != 0 {
                    key(&mut self.out, first, k);
                    push_enum(&mut self.out, n);
                }
            }
            FieldKind::Text(_)
            | FieldKind::Rule(_)
            | FieldKind::TraceState
            | FieldKind::SpanName
            | FieldKind::Key => {
                let s = string(w)?;
                if !s.is_empty() {
                    key(&mut self.out, first, k);
                    write_json_string(s, &mut self.out);
                }
            }
            FieldKind::Object(m) => {
                key(&mut self.out, first, k);
                let json_start = self.out.len();
                self.message(m, bytes(w)?, depth)?;
                // A resource or a scope: the message around attributes the
                // gate may cut.
                if m.holds_attributes() {
                    self.piece(json_start, whole()?);
                }
            }
            FieldKind::Body | FieldKind::Value => {
                key(&mut self.out, first, k);
                // A log body is a piece of its own, key and all: the gate
                // cuts it whole.
                let json_start = self.out.len() - k.len() - 3;
                self.any_value(bytes(w)?, depth + 1)?;
                if matches!(field.kind, FieldKind::Body) {
                    self.piece(json_start, whole()?);
                }
            }
            FieldKind::Array(..)
            | FieldKind::Attributes(_)
            | FieldKind::Pairs
            | FieldKind::Values => {
                let (m, depth) = match field.kind {
                    FieldKind::Values => (&ANY_VALUE, depth + 1),
                    kind => (kind.message().ok_or(())?, depth),
                };
                let whole = whole()?;
                key(&mut self.out, first, k);
                self.out.push(b'[');
                let mut items = Fields::new(whole);
                let mut i = 0;
                while let Some((_, w)) = items.next(|_| true)? {
                    if i > 0 {
                        self.out.push(b',');
                    }
                    i += 1;
                    let json_start = self.out.len();
                    self.message(m, bytes(w)?, depth)?;
                    let item = whole.get(items.field_start..items.at).ok_or(())?;
                    self.piece(json_start, item);
                }
                self.out.push(b']');
            }
            // `AnyValue`'s cases are written by `any_value`.
            FieldKind::Case(_) => return Err(()),
        }
        Ok(())
    }

    /// A `uint32` or `fixed32` written as a JSON number, unless 0.
    fn count(&mut self, first: &mut bool, k: &str, n: u32) {
        if n != 0 {
            key(&mut self.out, first, k);
            push_decimal(&mut self.out, n.into());
        }
    }

    /// `KeyValue`, the most frequent message, read straight into locals:
    /// its key (written even when empty), then its value.
    fn key_value(&mut self, body: &'a [u8], depth: u32) -> Result<(), ()> {
        let mut f = Fields::new(body);
        let (mut k, mut value) = ("", None);
        while let Some((n, w)) = f.next(|_| false)? {
            match KEY_VALUE.numbered(n).ok_or(())?.1.kind {
                FieldKind::Key => k = string(w)?,
                FieldKind::Value => value = Some(bytes(w)?),
                _ => return Err(()),
            }
        }
        let [key_field, value_field] = KEY_VALUE.fields else {
            return Err(());
        };
        self.out.push(b'{');
        let mut first = true;
        key(&mut self.out, &mut first, key_field.key);
        write_json_string(k, &mut self.out);
        if let Some(v) = value {
            key(&mut self.out, &mut first, value_field.key);
            self.any_value(v, depth + 1)?;
        }
        self.out.push(b'}');
        Ok(())
    }

    /// `AnyValue`: at most one of its oneof members.
    fn any_value(&mut self, msg: &'a [u8], depth: u32) -> Result<(), ()> {
        if depth > MAX_DEPTH {
            return Err(());
        }
        let mut f = Fields::new(msg);
        let Some((n, w)) = f.next(|_| false)? else {
            self.out.extend_from_slice(b"{}");
            return Ok(());
        };
        if f.next(|_| false)?.is_some() {
            // Two members: prost keeps the last (or merges); let it.
            return Err(());
        }
        let (_, field) = ANY_VALUE.numbered(n).ok_or(())?;
        self.out.push(b'{');
        key(&mut self.out, &mut true, field.key);
        match field.kind {
            FieldKind::Case(Case::String) => write_json_string(string(w)?, &mut self.out),
            FieldKind::Case(Case::Bool) => {
                let b = bool_value(w)?;
                self.out
                    .extend_from_slice(if b { b"true" } else { b"false" });
            }
            FieldKind::Case(Case::Int) => push_int64(&mut self.out, varint(w)? as i64),
            FieldKind::Case(Case::Double) => push_double(&mut self.out, double_value(w)?),
            FieldKind::Case(Case::Bytes) => push_base64(&mut self.out, bytes(w)?),
            // `arrayValue`, `kvlistValue`.
            FieldKind::Object(m) => self.message(m, bytes(w)?, depth)?,
            _ => return Err(()),
        }
        self.out.push(b'}');
        Ok(())
    }
}

/// An `ExportTraceServiceRequest` as one OTLP/JSON line, or `None` when the
/// fallback ([`super::merge`]) must decide (see the module's invariant).
pub fn traces(body: &[u8]) -> Option<Vec<u8>> {
    walk(&TRACES, body, false).map(|o| o.out)
}

/// [`traces`], with where each repeated message and log body of the line
/// came from in `body` (see [`Piece`]).
pub fn traces_mapped(body: &[u8]) -> Option<(Vec<u8>, Vec<Piece>)> {
    walk(&TRACES, body, true).map(|o| (o.out, o.pieces.unwrap_or_default()))
}

/// An `ExportLogsServiceRequest` as one OTLP/JSON line, or `None`.
pub fn logs(body: &[u8]) -> Option<Vec<u8>> {
    walk(&LOGS, body, false).map(|o| o.out)
}

/// [`logs`], with where each repeated message and log body of the line
/// came from in `body` (see [`Piece`]).
pub fn logs_mapped(body: &[u8]) -> Option<(Vec<u8>, Vec<Piece>)> {
    walk(&LOGS, body, true).map(|o| (o.out, o.pieces.unwrap_or_default()))
}

/// The export request `request` (`TRACES` or `LOGS`) in `body`, written.
fn walk<'a>(request: &'static Message, body: &'a [u8], mapped: bool) -> Option<Out<'a>> {
    let mut o = Out::new(body, mapped);
    o.message(request, body, 0).ok().map(|()| o)
}

#[cfg(test)]
pub(crate) mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use proptest::prelude::*;
    use prost::Message;

    use super::super::oracle::any_value::Value as V;
    use super::super::oracle::*;
    use super::{logs, traces, traces_mapped};

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(String::new()),
            "[a-z._]{1,12}",
            "\\PC{0,12}",
            Just("line\nbreak \"quoted\" \\ \u{2028} \u{7f}".to_string()),
        ]
    }

    fn id() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            Just(Vec::new()),
            proptest::collection::vec(any::<u8>(), 8),
            proptest::collection::vec(any::<u8>(), 0..20),
        ]
    }

    fn small() -> impl Strategy<Value = u32> {
        prop_oneof![Just(0u32), any::<u32>()]
    }

    /// An enum number: defined, just outside, negative, or anything.
    fn enum_number() -> impl Strategy<Value = i32> {
        prop_oneof![-3i32..=30, any::<i32>()]
    }

    fn any_value() -> impl Strategy<Value = AnyValue> {
        let leaf = prop_oneof![
            Just(None),
            text().prop_map(|s| Some(V::StringValue(s))),
            any::<bool>().prop_map(|b| Some(V::BoolValue(b))),
            any::<i64>().prop_map(|i| Some(V::IntValue(i))),
            prop_oneof![
                any::<f64>(),
                Just(f64::NAN),
                Just(f64::INFINITY),
                Just(f64::NEG_INFINITY),
                Just(-0.0),
                Just(1e300)
            ]
            .prop_map(|d| Some(V::DoubleValue(d))),
            id().prop_map(|b| Some(V::BytesValue(b))),
        ]
        .prop_map(|value| AnyValue { value });
        leaf.prop_recursive(20, 64, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(|values| AnyValue {
                    value: Some(V::ArrayValue(ArrayValue { values }))
                }),
                proptest::collection::vec((text(), proptest::option::of(inner)), 0..4).prop_map(
                    |kvs| AnyValue {
                        value: Some(V::KvlistValue(KeyValueList {
                            values: kvs
                                .into_iter()
                                .map(|(key, value)| KeyValue { key, value })
                                .collect(),
                        })),
                    }
                ),
            ]
        })
    }

    fn attributes() -> impl Strategy<Value = Vec<KeyValue>> {
        proptest::collection::vec(
            (text(), proptest::option::of(any_value()))
                .prop_map(|(key, value)| KeyValue { key, value }),
            0..4,
        )
    }

    fn resource() -> impl Strategy<Value = Option<Resource>> {
        proptest::option::of(
            (attributes(), small()).prop_map(|(attributes, d)| Resource {
                attributes,
                dropped_attributes_count: d,
            }),
        )
    }

    fn scope() -> impl Strategy<Value = Option<InstrumentationScope>> {
        proptest::option::of((text(), text(), attributes(), small()).prop_map(
            |(name, version, attributes, d)| InstrumentationScope {
                name,
                version,
                attributes,
                dropped_attributes_count: d,
            },
        ))
    }

    fn span() -> impl Strategy<Value = Span> {
        let ids = (id(), id(), text(), id(), small(), text(), enum_number());
        let times = (any::<u64>(), prop_oneof![Just(0u64), any::<u64>()]);
        let events = proptest::collection::vec(
            (any::<u64>(), text(), attributes(), small()).prop_map(|(t, name, attributes, d)| {
                Event {
                    time_unix_nano: t,
                    name,
                    attributes,
                    dropped_attributes_count: d,
                }
            }),
            0..3,
        );
        let links = proptest::collection::vec(
            (id(), id(), text(), attributes(), small(), small()).prop_map(
                |(trace_id, span_id, trace_state, attributes, d, flags)| Link {
                    trace_id,
                    span_id,
                    trace_state,
                    attributes,
                    dropped_attributes_count: d,
                    flags,
                },
            ),
            0..3,
        );
        let status = proptest::option::of(
            (text(), enum_number()).prop_map(|(message, code)| Status { message, code }),
        );
        (
            ids,
            times,
            attributes(),
            (small(), small(), small()),
            events,
            links,
            status,
        )
            .prop_map(
                |(
                    (trace_id, span_id, trace_state, parent_span_id, flags, name, kind),
                    (start, end),
                    attributes,
                    (da, de, dl),
                    events,
                    links,
                    status,
                )| Span {
                    trace_id,
                    span_id,
                    trace_state,
                    parent_span_id,
                    flags,
                    name,
                    kind,
                    start_time_unix_nano: start,
                    end_time_unix_nano: end,
                    attributes,
                    dropped_attributes_count: da,
                    events,
                    dropped_events_count: de,
                    links,
                    dropped_links_count: dl,
                    status,
                },
            )
    }

    pub(crate) fn trace_request() -> impl Strategy<Value = ExportTraceServiceRequest> {
        let scope_spans = (scope(), proptest::collection::vec(span(), 0..3), text()).prop_map(
            |(scope, spans, schema_url)| ScopeSpans {
                scope,
                spans,
                schema_url,
            },
        );
        proptest::collection::vec(
            (
                resource(),
                proptest::collection::vec(scope_spans, 0..3),
                text(),
            )
                .prop_map(|(resource, scope_spans, schema_url)| ResourceSpans {
                    resource,
                    scope_spans,
                    schema_url,
                }),
            0..3,
        )
        .prop_map(|resource_spans| ExportTraceServiceRequest { resource_spans })
    }

    pub(crate) fn log_request() -> impl Strategy<Value = ExportLogsServiceRequest> {
        let record = (
            (any::<u64>(), any::<u64>(), enum_number(), text()),
            proptest::option::of(any_value()),
            attributes(),
            (small(), small(), id(), id(), text()),
        )
            .prop_map(
                |((t, o, sev, sev_text), body, attributes, (d, flags, trace_id, span_id, name))| {
                    LogRecord {
                        time_unix_nano: t,
                        observed_time_unix_nano: o,
                        severity_number: sev,
                        severity_text: sev_text,
                        body,
                        attributes,
                        dropped_attributes_count: d,
                        flags,
                        trace_id,
                        span_id,
                        event_name: name,
                    }
                },
            );
        let scope_logs = (scope(), proptest::collection::vec(record, 0..3), text()).prop_map(
            |(scope, log_records, schema_url)| ScopeLogs {
                scope,
                log_records,
                schema_url,
            },
        );
        proptest::collection::vec(
            (
                resource(),
                proptest::collection::vec(scope_logs, 0..3),
                text(),
            )
                .prop_map(|(resource, scope_logs, schema_url)| ResourceLogs {
                    resource,
                    scope_logs,
                    schema_url,
                }),
            0..3,
        )
        .prop_map(|resource_logs| ExportLogsServiceRequest { resource_logs })
    }

    /// A change to an encoded request: a byte set, one inserted, a run
    /// removed, or a run repeated (a field sent twice).
    #[derive(Debug, Clone)]
    pub(crate) enum Mutation {
        Set(usize, u8),
        Insert(usize, u8),
        Remove(usize, usize),
        Repeat(usize, usize),
    }

    pub(crate) fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
        proptest::collection::vec(
            prop_oneof![
                (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Set(i, b)),
                (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
                (any::<usize>(), 1..8usize).prop_map(|(i, n)| Mutation::Remove(i, n)),
                (any::<usize>(), 1..24usize).prop_map(|(i, n)| Mutation::Repeat(i, n)),
            ],
            1..4,
        )
    }

    pub(crate) fn mutate(mut b: Vec<u8>, ms: &[Mutation]) -> Vec<u8> {
        for m in ms {
            let len = b.len().max(1);
            match *m {
                Mutation::Set(i, v) if !b.is_empty() => b[i % len] = v,
                Mutation::Insert(i, v) => b.insert(i % (b.len() + 1), v),
                Mutation::Remove(i, n) if !b.is_empty() => {
                    let at = i % len;
                    b.drain(at..(at + n).min(b.len()));
                }
                Mutation::Repeat(i, n) if !b.is_empty() => {
                    let at = i % len;
                    let run = b[at..(at + n).min(b.len())].to_vec();
                    b.splice(at..at, run);
                }
                _ => {}
            }
        }
        b
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// What prost encodes, the walk takes, and writes what the prost
        /// path writes, byte for byte.
        #[test]
        fn canonical_traces_are_written_as_prost_writes_them(req in trace_request()) {
            let body = req.encode_to_vec();
            let walked = traces(&body);
            prop_assert!(walked.is_some(), "a canonical request was left to prost");
            prop_assert_eq!(walked.unwrap(), decode_traces_prost(&body).unwrap());
        }

        #[test]
        fn canonical_logs_are_written_as_prost_writes_them(req in log_request()) {
            let body = req.encode_to_vec();
            let walked = logs(&body);
            prop_assert!(walked.is_some(), "a canonical request was left to prost");
            prop_assert_eq!(walked.unwrap(), decode_logs_prost(&body).unwrap());
        }

        /// Every enum number reaches the line as prost decoded it,
        /// negative and undefined ones included (the gate refuses those as
        /// it refuses them in OTLP/JSON): none becomes the default 0, which
        /// would pass. Both paths, traces and logs.
        #[test]
        fn enum_numbers_reach_the_line_as_decoded(
            t in trace_request(),
            l in log_request(),
        ) {
            let sent: Vec<(&str, i32)> = t
                .resource_spans
                .iter()
                .flat_map(|r| &r.scope_spans)
                .flat_map(|s| &s.spans)
                .flat_map(|s| {
                    let code = s.status.as_ref().map(|st| ("code", st.code));
                    std::iter::once(("kind", s.kind)).chain(code)
                })
                .chain(
                    l.resource_logs
                        .iter()
                        .flat_map(|r| &r.scope_logs)
                        .flat_map(|s| &s.log_records)
                        .map(|r| ("severityNumber", r.severity_number)),
                )
                .collect();
            let (tb, lb) = (t.encode_to_vec(), l.encode_to_vec());
            for (t_line, l_line) in [
                (decode_traces_prost(&tb).unwrap(), decode_logs_prost(&lb).unwrap()),
                (traces(&tb).unwrap(), logs(&lb).unwrap()),
            ] {
                let (tv, lv): (serde_json::Value, serde_json::Value) = (
                    serde_json::from_slice(&t_line).unwrap(),
                    serde_json::from_slice(&l_line).unwrap(),
                );
                let read = |o: &serde_json::Value, k: &str| o.get(k).map_or(Some(0), serde_json::Value::as_i64);
                let mut seen = Vec::new();
                for r in tv["resourceSpans"].as_array().into_iter().flatten() {
                    for s in r["scopeSpans"].as_array().into_iter().flatten() {
                        for span in s["spans"].as_array().into_iter().flatten() {
                            seen.push(("kind", read(span, "kind")));
                            if let Some(st) = span.get("status") {
                                seen.push(("code", read(st, "code")));
                            }
                        }
                    }
                }
                for r in lv["resourceLogs"].as_array().into_iter().flatten() {
                    for s in r["scopeLogs"].as_array().into_iter().flatten() {
                        for rec in s["logRecords"].as_array().into_iter().flatten() {
                            seen.push(("severityNumber", read(rec, "severityNumber")));
                        }
                    }
                }
                let want: Vec<(&str, Option<i64>)> =
                    sent.iter().map(|&(k, n)| (k, Some(i64::from(n)))).collect();
                prop_assert_eq!(&seen, &want);
            }
        }

        /// On damaged or re-ordered bytes the walk writes what prost
        /// writes, or leaves the request to it: never a line prost would
        /// not write, never one for a request prost refuses.
        #[test]
        fn damaged_traces_are_written_as_prost_writes_them_or_left_to_it(
            req in trace_request(),
            ms in mutations(),
        ) {
            let body = mutate(req.encode_to_vec(), &ms);
            if let Some(walked) = traces(&body) {
                prop_assert_eq!(Ok(walked), decode_traces_prost(&body));
            }
        }

        #[test]
        fn damaged_logs_are_written_as_prost_writes_them_or_left_to_it(
            req in log_request(),
            ms in mutations(),
        ) {
            let body = mutate(req.encode_to_vec(), &ms);
            if let Some(walked) = logs(&body) {
                prop_assert_eq!(Ok(walked), decode_logs_prost(&body));
            }
        }
    }

    /// Field `n`, length-delimited, holding `bytes`.
    fn field(n: u8, bytes: &[u8]) -> Vec<u8> {
        let mut out = vec![(n << 3) | 2];
        prost::encoding::encode_varint(bytes.len() as u64, &mut out);
        out.extend_from_slice(bytes);
        out
    }

    #[test]
    fn what_prost_merges_or_overrides_is_left_to_it() {
        let string = |v: &str| AnyValue {
            value: Some(V::StringValue(v.into())),
        };
        let resource = Resource {
            attributes: vec![KeyValue {
                key: "a".into(),
                value: Some(string("1")),
            }],
            dropped_attributes_count: 0,
        }
        .encode_to_vec();
        let request = |resource_spans: Vec<u8>| field(1, &resource_spans);
        let once = request(field(1, &resource));
        assert_eq!(traces(&once), Some(decode_traces_prost(&once).unwrap()));
        // The resource sent twice: prost merges the two; the walk declines.
        let twice = request([field(1, &resource), field(1, &resource)].concat());
        assert!(decode_traces_prost(&twice).is_ok());
        assert_eq!(traces(&twice), None);
        // An unknown field (number 4, a varint): prost skips it.
        let unknown = request([field(1, &resource), vec![4 << 3, 7]].concat());
        assert!(decode_traces_prost(&unknown).is_ok());
        assert_eq!(traces(&unknown), None);
        // Fields out of order: schema URL (3) before the resource (1).
        let reordered = request([field(3, b"s"), field(1, &resource)].concat());
        assert!(decode_traces_prost(&reordered).is_ok());
        assert_eq!(traces(&reordered), None);
        // Two members of a value's oneof: prost keeps the last.
        let two = [field(1, b"x"), vec![2 << 3, 1]].concat();
        let kv = [field(1, b"k"), field(2, &two)].concat();
        let reso = field(1, &kv);
        let both = request(field(1, &reso));
        assert!(decode_traces_prost(&both).is_ok());
        assert_eq!(traces(&both), None);
        // An intValue as a varint of ten bytes: the tenth may be 0 or 1,
        // as for prost; more is refused by both.
        for (last, ok) in [(1u8, true), (2, false), (0x81, false)] {
            let mut int = vec![3 << 3];
            int.extend_from_slice(&[0xff; 9]);
            int.push(last);
            if last == 0x81 {
                int.push(0);
            }
            let kv = [field(1, b"k"), field(2, &int)].concat();
            let req = request(field(1, &field(1, &kv)));
            let prost = decode_traces_prost(&req);
            assert_eq!(prost.is_ok(), ok, "{last}");
            assert_eq!(traces(&req), prost.ok(), "{last}");
        }
        // Values nested past prost's depth limit: prost refuses the
        // request; the walk leaves it to prost.
        // (50 arrays: 100 prost messages below the request, one too many.)
        let mut value = field(1, b"leaf");
        for _ in 0..50 {
            value = field(5, &field(1, &value));
        }
        let kv = [field(1, b"k"), field(2, &value)].concat();
        let deep = request(field(1, &field(1, &kv)));
        assert!(decode_traces_prost(&deep).is_err());
        assert_eq!(traces(&deep), None);
        // Bad UTF-8 in a string: prost refuses it, and so does the walk.
        let bad = request(field(3, b"\xff"));
        assert!(decode_traces_prost(&bad).is_err());
        assert_eq!(traces(&bad), None);
    }

    /// SECURITY: what the gate passes whole goes on as the request itself
    /// (`cut`), so the walk writes a line only where it says each value
    /// exactly; a value the line would round (a bool of 2, a `uint32` or
    /// an enum past its range, a NaN with a payload, a varint with a
    /// redundant byte: room for bits the gate never saw) is left to prost,
    /// whose line the gate's output is encoded from.
    #[test]
    fn values_the_line_cannot_say_exactly_are_left_to_prost() {
        let span = |fields: &[u8]| field(1, &field(2, &field(2, fields)));
        let attr = |any: &[u8]| span(&field(9, &[field(1, b"k"), field(2, any)].concat()));
        let nan = |bits: u64| [vec![(4 << 3) | 1], bits.to_le_bytes().to_vec()].concat();
        let varint = |key: u8, v: u64| {
            let mut b = vec![key];
            prost::encoding::encode_varint(v, &mut b);
            b
        };
        let cases: Vec<(&str, Vec<u8>, Vec<u8>)> = vec![
            ("bool", attr(&[2 << 3, 1]), attr(&[2 << 3, 2])),
            ("int varint", attr(&[3 << 3, 1]), attr(&[3 << 3, 0x81, 0])),
            (
                "double",
                attr(&nan(f64::NAN.to_bits())),
                attr(&nan(0x7ff8_0000_0000_0001)),
            ),
            (
                "kind",
                span(&varint(6 << 3, 1)),
                span(&varint(6 << 3, (1 << 32) | 1)),
            ),
            (
                "negative kind",
                span(&varint(6 << 3, -1i64 as u64)),
                span(&varint(6 << 3, u64::from(u32::MAX))),
            ),
            (
                "dropped",
                span(&varint(10 << 3, 1)),
                span(&varint(10 << 3, 1 << 32)),
            ),
            (
                "length",
                span(&field(5, b"n")),
                span(&[(5 << 3) | 2, 0x81, 0, b'n']),
            ),
        ];
        for (what, exact, rounded) in cases {
            let line = traces(&exact).unwrap_or_else(|| panic!("{what}: exact one refused"));
            assert_eq!(Ok(line), decode_traces_prost(&exact), "{what}");
            assert!(traces_mapped(&exact).is_some(), "{what}");
            assert!(
                decode_traces_prost(&rounded).is_ok(),
                "{what}: prost reads it"
            );
            assert_eq!(traces(&rounded), None, "{what}");
            assert!(traces_mapped(&rounded).is_none(), "{what}");
        }
    }
}
