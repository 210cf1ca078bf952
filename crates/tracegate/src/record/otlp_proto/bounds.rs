//! Structure bounds of one OTLP export request, checked **before** the
//! request is decoded into messages.
//!
//! A protobuf body is small on the wire and large in memory: an empty span
//! is two bytes on the wire and a few hundred once decoded, so an 8 MiB body
//! of empty spans decodes to gigabytes. [`check_protobuf`] walks the wire
//! format itself, allocating nothing but a stack bounded by the nesting
//! limit, counts spans, events, links, attributes, log records, groups and
//! nesting, and stops at the first bound passed. [`check_json`] counts the
//! same things on a scanned OTLP/JSON tape. Both are transport-independent:
//! the OTLP/HTTP handler calls them, and so will a gRPC receiver.
//!
//! # Untrusted input
//!
//! The walk is iterative, linear in the body's length, and stops at the
//! first bound passed; a body that is not well-formed protobuf is refused
//! as such. Errors name the bound and its limit, never a byte of the body.

use crate::otlp_schema::{LOGS, Message, Name, REQUEST, SCOPE_SPANS, SPAN, TRACES};
use crate::policy::StructureLimits;
use crate::record::tape::{Kind, Tape, string_value};

/// Whether entering `m` nests a value one level deeper.
fn nests(m: &Message) -> bool {
    matches!(m.name, Name::ArrayValue | Name::KvList)
}

/// What a request holds, counted before decoding.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Spans.
    pub spans: usize,
    /// Log records.
    pub log_records: usize,
    /// Resource and scope groups (`ResourceSpans`, `ScopeSpans`, ...).
    pub groups: usize,
    /// Span events.
    pub events: usize,
    /// Span links.
    pub links: usize,
    /// Attributes at every level, key-value-list members and array values.
    pub attributes: usize,
    /// Deepest array / key-value-list nesting seen.
    pub nesting: usize,
    /// Every message (or JSON object and array) of the request: what its
    /// decoded form costs beyond its bytes.
    pub items: usize,
}

impl Counts {
    /// The items a `partialSuccess` counts: spans, or log records.
    pub fn export_items(&self) -> usize {
        self.spans + self.log_records
    }
}

/// Which bound a request passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// `server.max_spans`.
    Spans,
    /// `server.max_log_records`.
    LogRecords,
    /// `server.max_spans` / `max_log_records`, counted on groups.
    Groups,
    /// `server.max_events`.
    Events,
    /// `server.max_links`.
    Links,
    /// `server.max_attributes`.
    Attributes,
    /// `server.max_nesting`.
    Nesting,
}

/// Why a request was refused before decoding. SECURITY: fixed words and
/// limits from the policy; never a byte of the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BoundError {
    /// The request holds more than a bound allows.
    #[error("request holds more {what} than `server.{key}` allows ({limit})", what = .bound.what(), key = .bound.key())]
    Exceeded {
        /// Which bound.
        bound: Bound,
        /// Its limit.
        limit: usize,
    },
    /// The body is not well-formed protobuf of the expected message.
    #[error("request body is not a valid OTLP protobuf export request")]
    Malformed,
}

impl Bound {
    /// The policy key.
    pub fn key(self) -> &'static str {
        match self {
            Bound::Spans => "max_spans",
            Bound::LogRecords => "max_log_records",
            Bound::Groups => "max_spans` / `max_log_records",
            Bound::Events => "max_events",
            Bound::Links => "max_links",
            Bound::Attributes => "max_attributes",
            Bound::Nesting => "max_nesting",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Bound::Spans => "spans",
            Bound::LogRecords => "log records",
            Bound::Groups => "resource or scope groups",
            Bound::Events => "span events",
            Bound::Links => "span links",
            Bound::Attributes => "attributes",
            Bound::Nesting => "nesting of attribute values",
        }
    }
}

crate::io_text::named_enum! {
    /// The two export requests, named as in their OTLP/HTTP paths
    /// (`/v1/traces`, `/v1/logs`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Signal {
        /// `ExportTraceServiceRequest`.
        Traces = "traces",
        /// `ExportLogsServiceRequest`.
        Logs = "logs",
    }
}

/// Running counts against the limits (also kept by the wire judge,
/// `gate::otlp::wire`, which walks every message [`check_protobuf`] counts
/// when it answers).
pub(crate) struct Counter<'l> {
    limits: &'l StructureLimits,
    c: Counts,
}

impl<'l> Counter<'l> {
    /// Nothing counted yet, against `limits`.
    pub(crate) fn new(limits: &'l StructureLimits) -> Self {
        Counter {
            limits,
            c: Counts::default(),
        }
    }

    /// What was counted.
    pub(crate) fn counts(&self) -> Counts {
        self.c
    }

    fn bump(n: &mut usize, limit: usize, bound: Bound) -> Result<(), BoundError> {
        *n += 1;
        if *n > limit {
            return Err(BoundError::Exceeded { bound, limit });
        }
        Ok(())
    }

    /// Count entering `m`, whose parent is `parent`, at value nesting `nest`.
    pub(crate) fn enter(
        &mut self,
        m: &Message,
        parent: &Message,
        nest: usize,
    ) -> Result<(), BoundError> {
        let l = self.limits;
        let c = &mut self.c;
        c.items += 1;
        match m.name {
            Name::ResourceSpans | Name::ScopeSpans => {
                Self::bump(&mut c.groups, l.max_spans, Bound::Groups)?
            }
            Name::ResourceLogs | Name::ScopeLogs => {
                Self::bump(&mut c.groups, l.max_log_records, Bound::Groups)?
            }
            Name::Span => Self::bump(&mut c.spans, l.max_spans, Bound::Spans)?,
            Name::LogRecord => {
                Self::bump(&mut c.log_records, l.max_log_records, Bound::LogRecords)?
            }
            Name::Event => Self::bump(&mut c.events, l.max_events, Bound::Events)?,
            Name::Link => Self::bump(&mut c.links, l.max_links, Bound::Links)?,
            Name::KeyValue => Self::bump(&mut c.attributes, l.max_attributes, Bound::Attributes)?,
            // An array element is a value of its own: it costs what an
            // attribute costs.
            Name::AnyValue if parent.name == Name::ArrayValue => {
                Self::bump(&mut c.attributes, l.max_attributes, Bound::Attributes)?
            }
            Name::ArrayValue | Name::KvList => {
                c.nesting = c.nesting.max(nest);
                if nest > l.max_nesting {
                    return Err(BoundError::Exceeded {
                        bound: Bound::Nesting,
                        limit: l.max_nesting,
                    });
                }
            }
            _ => {}
        }
        Ok(())
    }
}

fn varint(b: &[u8], pos: &mut usize) -> Result<u64, BoundError> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *b.get(*pos).ok_or(BoundError::Malformed)?;
        *pos += 1;
        v |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(BoundError::Malformed)
}

/// Count the structure of a protobuf export request without decoding it,
/// refusing it at the first bound passed or the first wire-format error.
pub fn check_protobuf(
    body: &[u8],
    signal: Signal,
    limits: &StructureLimits,
) -> Result<Counts, BoundError> {
    let root: &'static Message = match signal {
        Signal::Traces => &TRACES,
        Signal::Logs => &LOGS,
    };
    let mut counter = Counter::new(limits);
    // (message, end offset, value nesting). The fixed message levels are
    // at most 8 deep and each nesting level adds 3 (AnyValue, ArrayValue or
    // KvList, KeyValue), so the stack is bounded by the nesting limit.
    let mut stack: Vec<(&Message, usize, usize)> = Vec::with_capacity(16);
    stack.push((root, body.len(), 0));
    let mut pos = 0usize;
    while let Some(&(m, end, nest)) = stack.last() {
        if pos == end {
            stack.pop();
            continue;
        }
        let tag = varint(body, &mut pos)?;
        let (field, wire) = (tag >> 3, tag & 7);
        if field == 0 {
            return Err(BoundError::Malformed);
        }
        let len = match wire {
            0 => {
                varint(body, &mut pos)?;
                0
            }
            1 => 8,
            5 => 4,
            2 => usize::try_from(varint(body, &mut pos)?).map_err(|_| BoundError::Malformed)?,
            // Groups are deprecated and never used by OTLP: fail closed.
            _ => return Err(BoundError::Malformed),
        };
        let next = pos.checked_add(len).ok_or(BoundError::Malformed)?;
        if next > end {
            return Err(BoundError::Malformed);
        }
        match u32::try_from(field).ok().and_then(|n| m.child(n)) {
            Some(c) if wire == 2 => {
                let nest = nest + usize::from(nests(c));
                counter.enter(c, m, nest)?;
                stack.push((c, next, nest));
            }
            // A message field with another wire type: prost would refuse it.
            Some(_) => return Err(BoundError::Malformed),
            // SECURITY: an export request holds one field; a body whose top
            // level holds another (another message, a stray payload) is not
            // an export request, though protobuf would skip the field and
            // read it as an empty one.
            None if stack.len() == 1 => return Err(BoundError::Malformed),
            None => pos = next,
        }
    }
    if pos != body.len() {
        return Err(BoundError::Malformed);
    }
    Ok(counter.c)
}

/// Count the structure of a scanned OTLP/JSON line: an export request
/// (`resourceSpans` or `resourceLogs`) or a bare span. Keys other than the
/// OTLP/JSON ones are not descended into (the gate strips or refuses them).
pub fn check_json(tape: &Tape, text: &str, limits: &StructureLimits) -> Result<Counts, BoundError> {
    let mut w = JsonWalk {
        tape,
        text,
        counter: Counter {
            limits,
            c: Counts::default(),
        },
    };
    w.object(0, &REQUEST, 0, true)?;
    w.counter.c.items = tape.tokens().len();
    Ok(w.counter.c)
}

struct JsonWalk<'a> {
    tape: &'a Tape,
    text: &'a str,
    counter: Counter<'a>,
}

impl JsonWalk<'_> {
    /// The message `m`'s member `key` holds, if the walk descends into it.
    fn child(m: &Message, key: &str) -> Option<&'static Message> {
        m.field(key)?.kind.message()
    }

    /// Walk the object at token `at` as message `m`. `top` marks the line's
    /// own object: a bare span has no `resourceSpans`.
    fn object(&mut self, at: usize, m: &Message, nest: usize, top: bool) -> Result<(), BoundError> {
        let tokens = self.tape.tokens();
        // `{}` is an empty export request, not a span.
        let mut bare_span = top && self.tape.members(at).next().is_some();
        for (k, v) in self.tape.members(at) {
            let key = string_value(self.text, &tokens[k]);
            if top && matches!(key.as_ref(), "resourceSpans" | "resourceLogs") {
                bare_span = false;
            }
            let Some(c) = Self::child(m, &key) else {
                continue;
            };
            self.value(v, c, m, nest)?;
        }
        if bare_span {
            // Not an export request: count it as one span with its parts.
            self.counter.enter(&SPAN, &SCOPE_SPANS, 0)?;
            for (k, v) in self.tape.members(at) {
                let key = string_value(self.text, &tokens[k]);
                if let Some(c) = Self::child(&SPAN, &key) {
                    self.value(v, c, &SPAN, 0)?;
                }
            }
        }
        Ok(())
    }

    /// A member value of kind `c` (an array of them for repeated fields).
    fn value(
        &mut self,
        v: usize,
        c: &Message,
        parent: &Message,
        nest: usize,
    ) -> Result<(), BoundError> {
        let tokens = self.tape.tokens();
        let Some(t) = tokens.get(v) else {
            return Ok(());
        };
        match t.kind {
            Kind::Array => {
                for el in self.tape.elements(v) {
                    self.one(el, c, parent, nest)?;
                }
                Ok(())
            }
            Kind::Object => self.one(v, c, parent, nest),
            _ => Ok(()),
        }
    }

    fn one(
        &mut self,
        at: usize,
        c: &Message,
        parent: &Message,
        nest: usize,
    ) -> Result<(), BoundError> {
        let nest = nest + usize::from(nests(c));
        self.counter.enter(c, parent, nest)?;
        if self.tape.tokens().get(at).map(|t| t.kind) == Some(Kind::Object) {
            self.object(at, c, nest, false)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use crate::record::otlp_proto::{encode_logs_protobuf, encode_traces_protobuf};
    use proptest::prelude::*;

    fn limits() -> StructureLimits {
        StructureLimits::default()
    }

    const REQ: &str = r#"{"resourceSpans":[{"resource":{"attributes":[{"key":"a","value":{"stringValue":"x"}}]},"scopeSpans":[{"scope":{"name":"s","attributes":[{"key":"b"}]},"spans":[{"name":"n","attributes":[{"key":"c","value":{"arrayValue":{"values":[{"intValue":"1"},{"kvlistValue":{"values":[{"key":"d","value":{"boolValue":true}}]}}]}}}],"events":[{"name":"e","attributes":[{"key":"f"}]}],"links":[{"traceId":"0af7651916cd43dd8448eb211c80319c","attributes":[{"key":"g"}]}]},{"name":"m"}]}]}]}"#;

    fn json_counts(line: &str, l: &StructureLimits) -> Result<Counts, BoundError> {
        let mut t = Tape::new();
        let text = t.scan(line.as_bytes()).unwrap();
        check_json(&t, text, l)
    }

    #[test]
    fn wire_and_json_counts_agree() {
        let pb = encode_traces_protobuf(REQ).unwrap();
        let w = check_protobuf(&pb, Signal::Traces, &limits()).unwrap();
        let j = json_counts(REQ, &limits()).unwrap();
        let want = (2, 1, 1, 2, 8, 2); // spans events links groups attributes nesting
        for c in [w, j] {
            assert_eq!(
                (
                    c.spans,
                    c.events,
                    c.links,
                    c.groups,
                    c.attributes,
                    c.nesting
                ),
                want,
                "{c:?}"
            );
        }
        let logs = r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":{"stringValue":"x"},"attributes":[{"key":"k"}]},{}]}]}]}"#;
        let pb = encode_logs_protobuf(logs).unwrap();
        let w = check_protobuf(&pb, Signal::Logs, &limits()).unwrap();
        assert_eq!((w.log_records, w.groups, w.attributes), (2, 2, 1));
        let j = json_counts(logs, &limits()).unwrap();
        assert_eq!((j.log_records, j.groups, j.attributes), (2, 2, 1));
    }

    #[test]
    fn each_bound_refuses_one_past_its_limit() {
        let pb = encode_traces_protobuf(REQ).unwrap();
        let at = |f: &dyn Fn(&mut StructureLimits)| {
            let mut l = limits();
            f(&mut l);
            (
                check_protobuf(&pb, Signal::Traces, &l),
                json_counts(REQ, &l),
            )
        };
        for (set, bound) in [
            (
                &(|l: &mut StructureLimits| l.max_spans = 1) as &dyn Fn(&mut _),
                Bound::Groups,
            ),
            (&|l: &mut StructureLimits| l.max_events = 0, Bound::Events),
            (&|l: &mut StructureLimits| l.max_links = 0, Bound::Links),
            (
                &|l: &mut StructureLimits| l.max_attributes = 7,
                Bound::Attributes,
            ),
            (&|l: &mut StructureLimits| l.max_nesting = 1, Bound::Nesting),
        ] {
            let (w, j) = at(set);
            for r in [w, j] {
                match r {
                    Err(BoundError::Exceeded { bound: b, .. }) => assert_eq!(b, bound),
                    other => panic!("{bound:?}: {other:?}"),
                }
            }
        }
        // Three spans in two groups: the span bound itself.
        let three = r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{},{},{}]}]}]}"#;
        let l = StructureLimits {
            max_spans: 2,
            ..limits()
        };
        let pb = encode_traces_protobuf(three).unwrap();
        for r in [
            check_protobuf(&pb, Signal::Traces, &l),
            json_counts(three, &l),
        ] {
            assert_eq!(
                r,
                Err(BoundError::Exceeded {
                    bound: Bound::Spans,
                    limit: 2
                })
            );
        }
        // At the limit exactly: accepted.
        let (w, j) = at(&|l| {
            l.max_spans = 2;
            l.max_attributes = 8;
            l.max_nesting = 2;
            l.max_events = 1;
            l.max_links = 1;
        });
        assert!(w.is_ok() && j.is_ok());
    }

    #[test]
    fn empty_spans_are_counted_without_decoding() {
        // The attack of issue 12: an 8 MiB body of empty spans.
        let mut body = vec![0x0a, 0, 0x12, 0];
        let inner: Vec<u8> = std::iter::repeat_n([0x12u8, 0x00], 1 << 20)
            .flatten()
            .collect();
        // ResourceSpans { ScopeSpans { Span{} x 2^20 } }
        let mut scope = vec![0x12];
        push_varint(&mut scope, inner.len() as u64);
        scope.extend_from_slice(&inner);
        body.clear();
        body.push(0x0a);
        push_varint(&mut body, scope.len() as u64);
        body.extend_from_slice(&scope);
        let e = check_protobuf(&body, Signal::Traces, &limits()).unwrap_err();
        assert_eq!(
            e,
            BoundError::Exceeded {
                bound: Bound::Spans,
                limit: 16_384
            }
        );
        assert!(!e.to_string().is_empty());
    }

    fn push_varint(out: &mut Vec<u8>, mut v: u64) {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }

    proptest! {
        /// Any bytes: no panic, and where both accept, the walk's span
        /// count is the decoded one (prost also checks UTF-8, which the
        /// walk leaves to the decoder).
        #[test]
        fn the_walk_and_prost_agree_on_any_bytes(body in proptest::collection::vec(any::<u8>(), 0..256)) {
            use prost::Message;
            if let Ok(c) = check_protobuf(&body, Signal::Traces, &limits())
                && let Ok(req) = crate::record::otlp_proto::oracle::ExportTraceServiceRequest::decode(&body[..]) {
                let n: usize = req.resource_spans.iter()
                    .flat_map(|r| &r.scope_spans).map(|s| s.spans.len()).sum();
                prop_assert_eq!(n, c.spans);
            }
        }

        /// Mutations of a real request: the walk and prost agree on spans.
        #[test]
        fn mutated_requests_count_as_prost_decodes(i in 0usize..400, b in any::<u8>()) {
            use prost::Message;
            let mut pb = encode_traces_protobuf(REQ).unwrap();
            let i = i % pb.len();
            pb[i] = b;
            if let Ok(c) = check_protobuf(&pb, Signal::Traces, &limits())
                && let Ok(req) = crate::record::otlp_proto::oracle::ExportTraceServiceRequest::decode(&pb[..]) {
                    let n: usize = req.resource_spans.iter()
                        .flat_map(|r| &r.scope_spans).map(|s| s.spans.len()).sum();
                    prop_assert_eq!(n, c.spans);
            }
        }
    }
}
