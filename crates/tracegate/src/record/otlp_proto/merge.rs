//! Protobuf export requests written as OTLP/JSON with the semantics of a
//! protobuf library (prost's, to the byte): the decoder of every request
//! the wire walk ([`super::transcode`]) leaves alone.
//!
//! **Invariant:** the line is the one prost's structures, decoded from the
//! same bytes and written with the OTLP/JSON conventions, would give, and
//! a request prost refuses is refused here. That is, for a request in an
//! unusual encoding:
//!
//! - an unknown field is skipped (a group too, its end tag checked);
//! - a singular scalar sent twice: the last one wins; a singular message
//!   sent twice: the two are merged (read one after the other into one
//!   message);
//! - `AnyValue`'s oneof: the last member wins, a message member sent
//!   again in the same case is merged into the one before, a switch of
//!   case starts afresh;
//! - a varint is read as prost reads it (up to ten bytes, longer than it
//!   needs allowed, the tenth at most 1), a `uint32` or an enum keeps the
//!   low 32 bits, a `bool` is anything but 0;
//! - refused: a known field of the wrong wire type, a string that is not
//!   UTF-8, a truncated value or length, a field running past its
//!   message, a tag of 0, a key past 32 bits, wire types 6 and 7, an end
//!   group tag out of place, and messages (or groups) nested deeper than
//!   prost's recursion limit (100).
//!
//! The request is read eagerly into a tree of [`Node`]s, one per message,
//! whose fields the crate's OTLP table ([`crate::otlp_schema`]) names and
//! types; then written in the table's order, defaults left out, with the
//! number and string spellings the wire walk uses. A property test holds
//! it to prost on generated and damaged requests.
//!
//! # Untrusted input
//!
//! Depth is bounded by the recursion limit, as in prost. Memory: a node
//! holds only the fields that were sent, and strings and bytes are
//! borrowed from the request. (With a slot for every field of the table,
//! the densest request the default limits allow, sent in an encoding the
//! wire walk declines, peaked `serve` at 227 MiB alone and took 16 in
//! flight to 419 MiB, past the documented 384; now 137 MiB and 195 MiB,
//! against 72 MiB when the walk decodes it: `tests/it/serve_hard.rs`.)
//! Errors hold no byte of the input.

use super::super::escape::write_json_string;
use super::transcode::{key, read_varint, take};
use super::{
    ProtoError, push_base64, push_decimal, push_double, push_enum, push_hex, push_int64,
    push_quoted_decimal,
};
use crate::otlp_schema::{Case, FieldKind, LOGS, Message, Name, TRACES};

/// prost's recursion limit: how many messages (or groups) deep a request
/// may nest below the top-level one.
const RECURSION_LIMIT: u32 = 100;

/// A protobuf wire type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wire {
    Varint,
    Fixed64,
    Len,
    StartGroup,
    EndGroup,
    Fixed32,
}

/// A message's bytes, read front to back.
struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn done(&self) -> bool {
        self.at >= self.buf.len()
    }

    fn take(&mut self, n: u64) -> Result<&'a [u8], ()> {
        take(self.buf, &mut self.at, usize::try_from(n).map_err(|_| ())?)
    }

    /// A varint as prost reads it: more bytes than the value needs are
    /// allowed.
    fn varint(&mut self) -> Result<u64, ()> {
        read_varint(self.buf, &mut self.at, false)
    }

    /// A field's key: its number (1 or more) and wire type.
    fn key(&mut self) -> Result<(u32, Wire), ()> {
        let key = u32::try_from(self.varint()?).map_err(|_| ())?;
        let wire = match key & 7 {
            0 => Wire::Varint,
            1 => Wire::Fixed64,
            2 => Wire::Len,
            3 => Wire::StartGroup,
            4 => Wire::EndGroup,
            5 => Wire::Fixed32,
            _ => return Err(()),
        };
        match key >> 3 {
            0 => Err(()),
            n => Ok((n, wire)),
        }
    }

    /// A length-delimited value.
    fn len_delimited(&mut self) -> Result<&'a [u8], ()> {
        let n = self.varint()?;
        self.take(n)
    }

    /// An unknown field skipped, as prost skips it (`skip_field`): the
    /// recursion limit holds here too, and a group ends with its own
    /// number.
    fn skip(&mut self, number: u32, wire: Wire, budget: u32) -> Result<(), ()> {
        // SECURITY: nested groups recurse; the budget bounds the stack on
        // any input, as prost's recursion limit does.
        if budget == 0 {
            return Err(());
        }
        match wire {
            Wire::Varint => self.varint().map(drop),
            Wire::Fixed64 => self.take(8).map(drop),
            Wire::Fixed32 => self.take(4).map(drop),
            Wire::Len => self.len_delimited().map(drop),
            Wire::StartGroup => loop {
                let (n, w) = self.key()?;
                if w == Wire::EndGroup {
                    return if n == number { Ok(()) } else { Err(()) };
                }
                self.skip(n, w, budget - 1)?;
            },
            Wire::EndGroup => Err(()),
        }
    }
}

/// One field's value as decoded (by the table's index in [`Node::vals`]).
enum Val<'a> {
    /// Not sent.
    Absent,
    /// A varint, `fixed32` or `fixed64`, as read; narrowed when written.
    Num(u64),
    /// A string (UTF-8 checked when read).
    Str(&'a str),
    /// `bytes`.
    Bytes(&'a [u8]),
    /// A singular message: everything sent for it, merged.
    Msg(Node<'a>),
    /// A repeated message's elements, in order.
    List(Vec<Node<'a>>),
}

/// One decoded message: the fields that were sent, each as (its index in
/// the table entry, its value), and for `AnyValue` which member of the
/// oneof is set.
struct Node<'a> {
    msg: &'static Message,
    vals: Vec<(u8, Val<'a>)>,
    /// `AnyValue`: the index of the member set last.
    case: Option<u8>,
}

/// The value of a field that was not sent.
const ABSENT: Val<'static> = Val::Absent;

impl<'a> Node<'a> {
    fn new(msg: &'static Message) -> Node<'a> {
        Node {
            msg,
            vals: Vec::new(),
            case: None,
        }
    }

    /// The message in `body` merged into this one. `budget`: how many
    /// levels more may nest below it.
    fn merge(&mut self, body: &'a [u8], budget: u32) -> Result<(), ()> {
        let mut r = Reader { buf: body, at: 0 };
        while !r.done() {
            let (number, wire) = r.key()?;
            self.field(&mut r, number, wire, budget)?;
        }
        // SECURITY: a node's fields take the room they need, no more (a
        // vector grows to four slots on its first push).
        self.vals.shrink_to_fit();
        Ok(())
    }

    /// The value of field `i` (of the table entry), `None` if not sent.
    fn get(&self, i: usize) -> Option<&Val<'a>> {
        self.vals
            .iter()
            .find(|(j, _)| usize::from(*j) == i)
            .map(|(_, v)| v)
    }

    /// One field read into its slot, as prost's generated `merge_field`
    /// reads it.
    fn field(
        &mut self,
        r: &mut Reader<'a>,
        number: u32,
        wire: Wire,
        budget: u32,
    ) -> Result<(), ()> {
        let Some((i, field)) = self.msg.numbered(number) else {
            return r.skip(number, wire, budget);
        };
        let index = u8::try_from(i).map_err(|_| ())?;
        let oneof = self.msg.name == Name::AnyValue;
        // A switch of the oneof's case drops what the other case held (an
        // `AnyValue` holds no other field).
        if oneof && self.case != Some(index) {
            self.vals.clear();
        }
        let at = match self.vals.iter().position(|(j, _)| *j == index) {
            Some(at) => at,
            None => {
                self.vals.push((index, Val::Absent));
                self.vals.len() - 1
            }
        };
        let expect = |w: Wire| if w == wire { Ok(()) } else { Err(()) };
        let slot = &mut self.vals.get_mut(at).ok_or(())?.1;
        match field.kind {
            FieldKind::Hex(_) | FieldKind::Case(Case::Bytes) => {
                expect(Wire::Len)?;
                *slot = Val::Bytes(r.len_delimited()?);
            }
            FieldKind::Text(_)
            | FieldKind::Rule(_)
            | FieldKind::TraceState
            | FieldKind::SpanName
            | FieldKind::Key
            | FieldKind::Case(Case::String) => {
                expect(Wire::Len)?;
                let s = simdutf8::basic::from_utf8(r.len_delimited()?).map_err(|_| ())?;
                *slot = Val::Str(s);
            }
            FieldKind::Nanos | FieldKind::Case(Case::Double) => {
                expect(Wire::Fixed64)?;
                let b: [u8; 8] = r.take(8)?.try_into().map_err(|_| ())?;
                *slot = Val::Num(u64::from_le_bytes(b));
            }
            FieldKind::Flags(_) => {
                expect(Wire::Fixed32)?;
                let b: [u8; 4] = r.take(4)?.try_into().map_err(|_| ())?;
                *slot = Val::Num(u32::from_le_bytes(b).into());
            }
            FieldKind::Uint32
            | FieldKind::Enum(_)
            | FieldKind::Case(Case::Bool)
            | FieldKind::Case(Case::Int) => {
                expect(Wire::Varint)?;
                *slot = Val::Num(r.varint()?);
            }
            FieldKind::Object(_) | FieldKind::Body | FieldKind::Value => {
                let m = field.kind.message().ok_or(())?;
                expect(Wire::Len)?;
                // SECURITY: one level of the budget per nested message, so
                // the recursion (and the stack) is bounded on any input.
                let budget = budget.checked_sub(1).ok_or(())?;
                let body = r.len_delimited()?;
                if !matches!(slot, Val::Msg(_)) {
                    *slot = Val::Msg(Node::new(m));
                }
                if let Val::Msg(node) = slot {
                    node.merge(body, budget)?;
                }
            }
            FieldKind::Array(..)
            | FieldKind::Attributes(_)
            | FieldKind::Pairs
            | FieldKind::Values => {
                let m = field.kind.message().ok_or(())?;
                expect(Wire::Len)?;
                let budget = budget.checked_sub(1).ok_or(())?;
                let mut node = Node::new(m);
                node.merge(r.len_delimited()?, budget)?;
                if !matches!(slot, Val::List(_)) {
                    *slot = Val::List(Vec::new());
                }
                if let Val::List(items) = slot {
                    items.push(node);
                }
            }
        }
        if oneof {
            self.case = Some(index);
        }
        Ok(())
    }

    /// The message as OTLP/JSON: its fields in the table's order, scalars
    /// at their default left out, as the wire walk writes them.
    fn write(&self, out: &mut Vec<u8>) -> Result<(), ()> {
        if self.msg.name == Name::AnyValue {
            return self.write_any(out);
        }
        out.push(b'{');
        let mut first = true;
        for (i, field) in self.msg.fields.iter().enumerate() {
            let val = self.get(i).unwrap_or(&ABSENT);
            let k = field.key;
            match (field.kind, val) {
                // `KeyValue.key` is written even when empty or not sent.
                (FieldKind::Key, Val::Absent) => {
                    key(out, &mut first, k);
                    write_json_string("", out);
                }
                (FieldKind::Key, Val::Str(s)) => {
                    key(out, &mut first, k);
                    write_json_string(s, out);
                }
                (_, Val::Absent) => {}
                (_, Val::Str(s)) => {
                    if !s.is_empty() {
                        key(out, &mut first, k);
                        write_json_string(s, out);
                    }
                }
                (_, Val::Bytes(id)) => {
                    if !id.is_empty() {
                        key(out, &mut first, k);
                        push_hex(out, id);
                    }
                }
                (FieldKind::Nanos, Val::Num(n)) => {
                    if *n != 0 {
                        key(out, &mut first, k);
                        push_quoted_decimal(out, *n);
                    }
                }
                (FieldKind::Enum(_), Val::Num(n)) => {
                    // prost's int32: the low 32 bits.
                    let n = *n as u32 as i32;
                    if n != 0 {
                        key(out, &mut first, k);
                        push_enum(out, n);
                    }
                }
                (_, Val::Num(n)) => {
                    // `uint32` and `fixed32`: the low 32 bits.
                    let n = *n as u32;
                    if n != 0 {
                        key(out, &mut first, k);
                        push_decimal(out, n.into());
                    }
                }
                (_, Val::Msg(node)) => {
                    key(out, &mut first, k);
                    node.write(out)?;
                }
                (_, Val::List(items)) => {
                    key(out, &mut first, k);
                    out.push(b'[');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push(b',');
                        }
                        item.write(out)?;
                    }
                    out.push(b']');
                }
            }
        }
        out.push(b'}');
        Ok(())
    }

    /// `AnyValue`: `{}`, or its one member, written even at its default.
    fn write_any(&self, out: &mut Vec<u8>) -> Result<(), ()> {
        out.push(b'{');
        if let Some(i) = self.case.map(usize::from) {
            let field = self.msg.fields.get(i).ok_or(())?;
            key(out, &mut true, field.key);
            match (field.kind, self.get(i).ok_or(())?) {
                (FieldKind::Case(Case::String), Val::Str(s)) => write_json_string(s, out),
                (FieldKind::Case(Case::Bool), Val::Num(n)) => {
                    out.extend_from_slice(if *n != 0 { b"true" } else { b"false" });
                }
                (FieldKind::Case(Case::Int), Val::Num(n)) => push_int64(out, *n as i64),
                (FieldKind::Case(Case::Double), Val::Num(n)) => {
                    push_double(out, f64::from_bits(*n));
                }
                (FieldKind::Case(Case::Bytes), Val::Bytes(b)) => push_base64(out, b),
                (_, Val::Msg(node)) => node.write(out)?,
                _ => return Err(()),
            }
        }
        out.push(b'}');
        Ok(())
    }
}

/// An `ExportTraceServiceRequest` as one OTLP/JSON line, with prost's
/// semantics; `Err` where prost refuses it.
pub fn traces(body: &[u8]) -> Result<Vec<u8>, ProtoError> {
    request(&TRACES, body)
}

/// An `ExportLogsServiceRequest` as one OTLP/JSON line (see [`traces`]).
pub fn logs(body: &[u8]) -> Result<Vec<u8>, ProtoError> {
    request(&LOGS, body)
}

fn request(msg: &'static Message, body: &[u8]) -> Result<Vec<u8>, ProtoError> {
    let mut node = Node::new(msg);
    node.merge(body, RECURSION_LIMIT)
        .map_err(|()| ProtoError::Decode)?;
    // Keys and hex ids make the line about twice as long as the request.
    let mut out = Vec::with_capacity(body.len().saturating_mul(2).saturating_add(64));
    node.write(&mut out).map_err(|()| ProtoError::Decode)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use proptest::prelude::*;
    use prost::Message as _;
    use prost::encoding::encode_varint;

    use super::super::oracle::{decode_logs_prost, decode_traces_prost};
    use super::super::transcode::tests::{log_request, mutate, mutations, trace_request};
    use super::{logs, traces};
    use crate::otlp_schema::{LOGS, Message, TRACES};

    /// A non-canonical re-encoding of one message of a request: the
    /// encodings other protobuf writers (and broken or hostile ones)
    /// produce, which the wire walk leaves to the fallback.
    #[derive(Debug, Clone)]
    enum Edit {
        /// Its fields in reverse order.
        Reverse,
        /// Field `i` sent again at the end; a varint or fixed value
        /// changed to `v` (a singular scalar twice: the last wins; a
        /// message twice: merged).
        Again(usize, u64),
        /// An unknown field of this wire type (3: a group holding a
        /// varint; 4: an end of group alone; 6, 7: none).
        Unknown(u8),
        /// Field `i`'s key, or its varint or length, one byte longer
        /// than it needs.
        Overlong(usize, bool),
        /// Field `i` with wire type `w` (its bytes as they are).
        WrongWire(usize, u8),
        /// Field `i`'s varint with bits set above 32 (a `uint32`, an enum
        /// or a bool past its range).
        HighBits(usize),
        /// A byte 0xff put into field `i`'s length-delimited value.
        BadUtf8(usize),
        /// A member of `AnyValue`'s case `n` (1 to 7) appended: a switch
        /// of case, or the same case again.
        Case(u8),
    }

    fn edits() -> impl Strategy<Value = Vec<(usize, Edit)>> {
        let edit = prop_oneof![
            Just(Edit::Reverse),
            (
                any::<usize>(),
                prop_oneof![Just(0u64), Just(1), Just(7), any::<u64>()]
            )
                .prop_map(|(i, v)| Edit::Again(i, v)),
            (0u8..8).prop_map(Edit::Unknown),
            (any::<usize>(), any::<bool>()).prop_map(|(i, k)| Edit::Overlong(i, k)),
            (any::<usize>(), 0u8..8).prop_map(|(i, w)| Edit::WrongWire(i, w)),
            any::<usize>().prop_map(Edit::HighBits),
            any::<usize>().prop_map(Edit::BadUtf8),
            (1u8..=7).prop_map(Edit::Case),
        ];
        proptest::collection::vec((any::<usize>(), edit), 1..5)
    }

    /// One field as read off a canonical encoding.
    struct Raw {
        number: u32,
        wire: u8,
        /// The varint, or the fixed value's or length-delimited value's
        /// bytes (without the length).
        varint: u64,
        bytes: Vec<u8>,
    }

    fn varint(b: &[u8], at: &mut usize) -> u64 {
        let mut v = 0;
        for i in 0.. {
            let x = b[*at];
            *at += 1;
            v |= u64::from(x & 0x7f) << (7 * i);
            if x < 0x80 {
                break;
            }
        }
        v
    }

    fn put_varint(v: u64, overlong: bool, out: &mut Vec<u8>) {
        let at = out.len();
        encode_varint(v, out);
        if overlong && out.len() - at < 10 {
            *out.last_mut().unwrap() |= 0x80;
            out.push(0);
        }
    }

    fn parse(b: &[u8]) -> Vec<Raw> {
        let mut at = 0;
        let mut fields = Vec::new();
        while at < b.len() {
            let key = varint(b, &mut at);
            let (number, wire) = ((key >> 3) as u32, (key & 7) as u8);
            let (mut v, mut bytes) = (0, Vec::new());
            match wire {
                0 => v = varint(b, &mut at),
                1 | 5 => {
                    let n = if wire == 1 { 8 } else { 4 };
                    bytes = b[at..at + n].to_vec();
                    at += n;
                }
                _ => {
                    let n = varint(b, &mut at) as usize;
                    bytes = b[at..at + n].to_vec();
                    at += n;
                }
            }
            fields.push(Raw {
                number,
                wire,
                varint: v,
                bytes,
            });
        }
        fields
    }

    /// `body`, a canonical `msg`, written again with the edits aimed at it
    /// (by its index in preorder, counted in `seen`) and at the messages
    /// inside it.
    fn rewrite(
        msg: &'static Message,
        body: &[u8],
        edits: &[(usize, Edit)],
        seen: &mut usize,
        total: usize,
    ) -> Vec<u8> {
        let me = *seen;
        *seen += 1;
        let mut fields = parse(body);
        for f in &mut fields {
            if f.wire == 2
                && let Some(m) = msg.child(f.number)
            {
                f.bytes = rewrite(m, &f.bytes, edits, seen, total);
            }
        }
        let mut overlong = Vec::new();
        for (target, e) in edits {
            if target % total.max(1) != me {
                continue;
            }
            let n = fields.len().max(1);
            match *e {
                Edit::Reverse => fields.reverse(),
                Edit::Again(i, v) if !fields.is_empty() => {
                    let f = &fields[i % n];
                    let bytes = match f.wire {
                        1 => v.to_le_bytes().to_vec(),
                        5 => (v as u32).to_le_bytes().to_vec(),
                        _ => f.bytes.clone(),
                    };
                    fields.push(Raw {
                        number: f.number,
                        wire: f.wire,
                        varint: v,
                        bytes,
                    });
                }
                Edit::Unknown(w) => fields.push(Raw {
                    number: 99,
                    wire: w,
                    varint: 5,
                    bytes: match w {
                        1 => vec![1; 8],
                        5 => vec![1; 4],
                        _ => b"zz".to_vec(),
                    },
                }),
                Edit::Overlong(i, key) if !fields.is_empty() => overlong.push((i % n, key)),
                Edit::WrongWire(i, w) if !fields.is_empty() => fields[i % n].wire = w,
                Edit::HighBits(i) if !fields.is_empty() => fields[i % n].varint |= 3 << 32,
                Edit::BadUtf8(i) if !fields.is_empty() => {
                    let f = &mut fields[i % n];
                    let at = f.bytes.len() / 2;
                    f.bytes.insert(at, 0xff);
                }
                Edit::Case(n) => {
                    let (wire, varint, bytes) = match n {
                        1 => (2, 0, b"z".to_vec()),
                        2 | 3 => (0, 1, Vec::new()),
                        4 => (1, 0, 2.5f64.to_le_bytes().to_vec()),
                        5 => (2, 0, vec![0x0a, 0x00]),
                        6 => (2, 0, vec![0x0a, 0x03, 0x0a, 0x01, b'q']),
                        _ => (2, 0, vec![1, 2, 3]),
                    };
                    fields.push(Raw {
                        number: n.into(),
                        wire,
                        varint,
                        bytes,
                    });
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        for (i, f) in fields.iter().enumerate() {
            let long = |key| overlong.contains(&(i, key));
            put_varint(
                (u64::from(f.number) << 3) | u64::from(f.wire),
                long(true),
                &mut out,
            );
            match f.wire {
                0 => put_varint(f.varint, long(false), &mut out),
                1 | 5 => out.extend_from_slice(&f.bytes),
                3 => {
                    // A group holding one varint field, then its end
                    // (wire type 4 in the edit: ended by another number).
                    out.extend_from_slice(&[1 << 3, 1]);
                    put_varint((u64::from(f.number) << 3) | 4, false, &mut out);
                }
                4 => {}
                _ => {
                    put_varint(f.bytes.len() as u64, long(false), &mut out);
                    out.extend_from_slice(&f.bytes);
                }
            }
        }
        out
    }

    /// How many messages `body` (a canonical `msg`) holds, itself included.
    fn messages(msg: &'static Message, body: &[u8]) -> usize {
        1 + parse(body)
            .iter()
            .filter(|f| f.wire == 2)
            .filter_map(|f| Some(messages(msg.child(f.number)?, &f.bytes)))
            .sum::<usize>()
    }

    fn edited(msg: &'static Message, body: &[u8], edits: &[(usize, Edit)]) -> Vec<u8> {
        let total = messages(msg, body);
        rewrite(msg, body, edits, &mut 0, total)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Canonical requests: the fallback writes prost's line.
        #[test]
        fn canonical_requests_are_decoded_as_prost_decodes_them(
            t in trace_request(),
            l in log_request(),
        ) {
            let (tb, lb) = (t.encode_to_vec(), l.encode_to_vec());
            prop_assert_eq!(traces(&tb), decode_traces_prost(&tb));
            prop_assert_eq!(logs(&lb), decode_logs_prost(&lb));
        }

        /// Requests re-encoded the ways the wire walk declines (fields
        /// out of order, sent twice, unknown, overlong, of the wrong wire
        /// type, past their range, bad UTF-8, a oneof switching case):
        /// the fallback writes prost's line, or refuses what prost
        /// refuses.
        #[test]
        fn re_encoded_requests_are_decoded_as_prost_decodes_them(
            t in trace_request(),
            l in log_request(),
            es in edits(),
        ) {
            let tb = edited(&TRACES, &t.encode_to_vec(), &es);
            prop_assert_eq!(traces(&tb), decode_traces_prost(&tb));
            let lb = edited(&LOGS, &l.encode_to_vec(), &es);
            prop_assert_eq!(logs(&lb), decode_logs_prost(&lb));
        }

        /// Bytes damaged at random (set, inserted, removed, repeated):
        /// the same line as prost, or the same refusal.
        #[test]
        fn damaged_requests_are_decoded_as_prost_decodes_them(
            t in trace_request(),
            l in log_request(),
            ms in mutations(),
        ) {
            let tb = mutate(t.encode_to_vec(), &ms);
            prop_assert_eq!(traces(&tb), decode_traces_prost(&tb));
            let lb = mutate(l.encode_to_vec(), &ms);
            prop_assert_eq!(logs(&lb), decode_logs_prost(&lb));
        }
    }

    /// Field `n`, length-delimited, holding `bytes`.
    fn field(n: u8, bytes: &[u8]) -> Vec<u8> {
        let mut out = vec![(n << 3) | 2];
        encode_varint(bytes.len() as u64, &mut out);
        out.extend_from_slice(bytes);
        out
    }

    /// The key of field `n` with wire type `w`.
    fn k(n: u64, w: u64) -> Vec<u8> {
        let mut out = Vec::new();
        encode_varint((n << 3) | w, &mut out);
        out
    }

    /// What prost's merge rules make of a request, spelled out: each
    /// case is also held to prost itself.
    #[test]
    fn merge_rules_are_prosts() {
        let span = |fields: &[u8]| field(1, &field(2, &field(2, fields)));
        let attr = |any: &[u8]| span(&field(9, &[field(1, b"k"), field(2, any)].concat()));
        let line = |b: &[u8]| String::from_utf8(traces(b).unwrap()).unwrap();
        let cases: Vec<(&str, Vec<u8>, &str)> = vec![
            (
                "a scalar twice: the last",
                span(&[field(5, b"first"), field(5, b"last")].concat()),
                r#""name":"last""#,
            ),
            (
                "a message twice: merged",
                span(&[field(15, &field(2, b"m")), field(15, &[3 << 3, 2])].concat()),
                r#""status":{"message":"m","code":2}"#,
            ),
            (
                "a oneof switching case: the last",
                attr(&[field(1, b"s"), vec![2 << 3, 1]].concat()),
                r#""value":{"boolValue":true}"#,
            ),
            (
                "the same message case twice: merged",
                attr(
                    &[
                        field(5, &field(1, &field(1, b"a"))),
                        field(5, &field(1, &[3 << 3, 4])),
                    ]
                    .concat(),
                ),
                r#""arrayValue":{"values":[{"stringValue":"a"},{"intValue":"4"}]}"#,
            ),
            (
                "a switch away and back: afresh",
                attr(
                    &[
                        field(5, &field(1, &field(1, b"a"))),
                        field(1, b"s"),
                        field(5, &[]),
                    ]
                    .concat(),
                ),
                r#""arrayValue":{}"#,
            ),
            (
                "a uint32 past its range: the low 32 bits",
                span(&[10 << 3, 0x85, 0x80, 0x80, 0x80, 0x10]),
                r#""droppedAttributesCount":5"#,
            ),
            (
                "an overlong varint and an unknown group",
                span(&[vec![6 << 3, 0x82, 0x00], k(99, 3), vec![8, 1], k(99, 4)].concat()),
                r#""kind":2"#,
            ),
        ];
        for (what, body, want) in cases {
            assert_eq!(traces(&body), decode_traces_prost(&body), "{what}");
            assert!(line(&body).contains(want), "{what}: {}", line(&body));
        }
    }

    /// What prost refuses, the fallback refuses: each case is held to
    /// prost too.
    #[test]
    fn what_prost_refuses_is_refused() {
        let span = |fields: &[u8]| field(1, &field(2, &field(2, fields)));
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("wrong wire type", span(&[5 << 3, 1])),
            ("bad UTF-8", span(&field(5, b"\xff"))),
            ("truncated length", span(&[(5 << 3) | 2, 9, b'a'])),
            ("truncated fixed64", span(&[(7 << 3) | 1, 1, 2])),
            ("tag 0", span(&[2, 0])),
            ("wire type 6", span(&k(99, 6))),
            ("a lone end group", span(&k(99, 4))),
            (
                "a group ended by another number",
                span(&[k(99, 3), k(98, 4)].concat()),
            ),
            (
                "an eleven-byte varint",
                span(&[
                    6 << 3,
                    0xff,
                    0xff,
                    0xff,
                    0xff,
                    0xff,
                    0xff,
                    0xff,
                    0xff,
                    0xff,
                    0x81,
                    0,
                ]),
            ),
            (
                "a key past 32 bits",
                span(&[0x80, 0x80, 0x80, 0x80, 0x10, 0]),
            ),
            (
                "a field running past its message",
                [vec![0x0a, 0x02], vec![0x12, 0x05, 1, 2, 3]].concat(),
            ),
        ];
        for (what, body) in cases {
            assert_eq!(traces(&body), Err(super::ProtoError::Decode), "{what}");
            assert!(decode_traces_prost(&body).is_err(), "{what}");
        }
    }

    /// Nesting at prost's recursion limit: the same line, or the same
    /// refusal, on either side of it, for values, unknown fields and
    /// groups.
    #[test]
    fn nesting_is_bounded_as_prost_bounds_it() {
        // The first depth refused, for a plain leaf and for one holding an
        // unknown field (which prost skips only with room to recurse).
        let mut refused_at = [None, None];
        for depth in 40..52 {
            // Arrays of arrays: two messages a level, below the request,
            // its resource spans, the resource and the attribute.
            let leaf = field(1, b"leaf");
            let odd_leaf = [leaf.clone(), k(99, 0), vec![1]].concat();
            for (which, leaf) in [leaf, odd_leaf].into_iter().enumerate() {
                let mut v = leaf;
                for _ in 0..depth {
                    v = field(5, &field(1, &v));
                }
                let kv = [field(1, b"k"), field(2, &v)].concat();
                let body = field(1, &field(1, &field(1, &kv)));
                assert_eq!(traces(&body), decode_traces_prost(&body), "{depth}");
                if traces(&body).is_err() && refused_at[which].is_none() {
                    refused_at[which] = Some(depth);
                }
            }
        }
        // The leaf is message 4 + 2 * depth: 100 deep is the last allowed.
        assert_eq!(refused_at, [Some(49), Some(48)]);
        // Groups nested in an unknown field: a few are skipped, 120 are
        // past the limit.
        for (n, ok) in [(3, true), (120, false)] {
            let group = [k(9, 3).repeat(n), k(9, 4).repeat(n)].concat();
            let body = field(1, &[field(3, b"s"), group].concat());
            assert_eq!(traces(&body), decode_traces_prost(&body), "{n}");
            assert_eq!(traces(&body).is_ok(), ok, "{n}");
        }
    }
}
