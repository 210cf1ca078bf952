//! A gated protobuf export request written by cutting the stripped
//! members out of the request as it arrived, instead of encoding the
//! gated OTLP/JSON line again.
//!
//! The wire walk ([`super::transcode`]) can say where each repeated
//! message (a span, an attribute, ...) and each log body of the line it
//! writes came from in the request: a [`Piece`]. When the gate's OTLP
//! fast path strips members, its projection is the line without them
//! (`gate::Gate::stripped_ranges`); [`project`] takes the same members
//! out of the request and rewrites the length of every message around
//! them.
//!
//! **Invariant:** the output holds exactly what the projection holds.
//! This rests on the walk's own invariant: it writes a line only for a
//! request in the encoding every protobuf library writes (known fields
//! only, each message's fields in ascending order, singular fields once,
//! at most one member of a oneof), so each field of the request is one
//! member of the line and the request means what the line says; a
//! request it refuses has no pieces, and its gated line is encoded as
//! before. A range the pieces do not name, or that does not cover whole
//! fields, gives `None` (encode instead). Property tests hold the output
//! byte-equal to the encoded projection for requests as prost writes
//! them.

use prost::encoding::{
    WireType, encode_key, encode_varint, encoded_len_varint, key_len as field_key_len,
};

use super::transcode::{Fields, Wire};

/// One member of a line written by the wire walk and the field of the
/// request it was written from: byte ranges (start, end) of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// The member in the line: an array element (`{...}`) or a log
    /// body's `"body":{...}`.
    pub json: (usize, usize),
    /// The whole field in the request: key, length and message.
    pub pb: (usize, usize),
}

/// The request `body` without the fields the line's `json_cuts` were
/// written from, every enclosing length rewritten; `None` when a cut is
/// not one of `pieces` (then encode the projection instead).
///
/// `pieces` must come from the wire walk of `body` (in the order it
/// wrote them: each piece ends after the one before), `json_cuts` from
/// the gate's judgement of that line (in line order).
pub fn project(body: &[u8], pieces: &[Piece], json_cuts: &[(usize, usize)]) -> Option<Vec<u8>> {
    let mut cuts = Vec::with_capacity(json_cuts.len());
    for &(start, end) in json_cuts {
        // Pieces end in the order they were written (a message after its
        // own members), so they are sorted by their ends.
        let i = pieces.binary_search_by_key(&end, |p| p.json.1).ok()?;
        let p = pieces.get(i)?;
        if p.json.0 != start {
            return None;
        }
        cuts.push(p.pb);
    }
    cuts.sort_unstable();
    if cuts.windows(2).any(|w| w[0].1 > w[1].0) {
        return None;
    }
    let mut sizes = Vec::new();
    let len = plan(body, 0, &cuts, &mut sizes)?;
    let mut out = Vec::with_capacity(len);
    let mut next = 0;
    write(body, 0, &cuts, &sizes, &mut next, &mut out)?;
    (out.len() == len).then_some(out)
}

/// One field of a message as [`plan`] and [`write`] see it.
enum Step<'c> {
    /// Copy the field as it is.
    Keep,
    /// Leave the field out.
    Drop,
    /// A message with cuts inside: field number, its bytes and where they
    /// start in the request, and the cuts inside them.
    Into(u32, &'c [u8], usize, &'c [(usize, usize)]),
}

/// What to do with the field `f` just read (`w`, at `base`), taking the
/// cuts that fall in it from `cuts[*c..]`.
fn step<'c>(
    f: &Fields<'c>,
    number: u32,
    w: Wire<'c>,
    base: usize,
    cuts: &'c [(usize, usize)],
    c: &mut usize,
) -> Option<Step<'c>> {
    let (start, end) = (base + f.field_start, base + f.at);
    let from = *c;
    while cuts.get(*c).is_some_and(|cut| cut.0 < end) {
        *c += 1;
    }
    let inner = cuts.get(from..*c)?;
    match inner {
        [] => Some(Step::Keep),
        [only] if *only == (start, end) => Some(Step::Drop),
        [first, .., last] | [first @ last] => {
            let Wire::Len(msg) = w else { return None };
            let at = end - msg.len();
            // SECURITY: a cut must lie inside the message, not across its
            // key or length or past its end.
            (first.0 >= at && last.1 <= end).then_some(Step::Into(number, msg, at, inner))
        }
    }
}

/// The length of `msg` (at `base` in the request) without `cuts`,
/// pushing the new length of each message it rewrites onto `sizes` (in
/// the order [`write`] visits them).
fn plan(msg: &[u8], base: usize, cuts: &[(usize, usize)], sizes: &mut Vec<usize>) -> Option<usize> {
    let mut f = Fields::new(msg);
    let (mut len, mut c) = (0usize, 0usize);
    while let Some((number, w)) = f.next(|_| true).ok()? {
        match step(&f, number, w, base, cuts, &mut c)? {
            Step::Keep => len += f.at - f.field_start,
            Step::Drop => {}
            Step::Into(number, inner, at, inner_cuts) => {
                let slot = sizes.len();
                sizes.push(0);
                let n = plan(inner, at, inner_cuts, sizes)?;
                *sizes.get_mut(slot)? = n;
                len += field_key_len(number) + encoded_len_varint(n as u64) + n;
            }
        }
    }
    (c == cuts.len()).then_some(len)
}

/// Write `msg` without `cuts`, with the lengths [`plan`] found.
fn write(
    msg: &[u8],
    base: usize,
    cuts: &[(usize, usize)],
    sizes: &[usize],
    next: &mut usize,
    out: &mut Vec<u8>,
) -> Option<()> {
    let mut f = Fields::new(msg);
    let mut c = 0usize;
    while let Some((number, w)) = f.next(|_| true).ok()? {
        match step(&f, number, w, base, cuts, &mut c)? {
            Step::Keep => out.extend_from_slice(msg.get(f.field_start..f.at)?),
            Step::Drop => {}
            Step::Into(number, inner, at, inner_cuts) => {
                let n = *sizes.get(*next)?;
                *next += 1;
                encode_key(number, WireType::LengthDelimited, out);
                encode_varint(n as u64, out);
                write(inner, at, inner_cuts, sizes, next, out)?;
            }
        }
    }
    Some(())
}
