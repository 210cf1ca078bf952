//! A gated protobuf export request written by cutting the stripped
//! members out of the request as it arrived, instead of encoding the
//! gated OTLP/JSON line again.
//!
//! The wire walk ([`super::transcode`]) can say where each repeated
//! message (a span, an attribute, ...), each resource and scope, and each
//! log body of the line it writes came from in the request: a [`Piece`].
//! Pieces nest as the request's fields do. When the gate's OTLP
//! fast path strips members, its projection is the line without them
//! (`gate::Gate::stripped_ranges`); [`project`] takes the same members
//! out of the request and rewrites the length of every message around
//! them (which the pieces name too: the groups, spans, events, links,
//! resources and scopes), copying the bytes between as they are.
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

use prost::encoding::{WireType, decode_varint, encode_varint, encoded_len_varint};

/// One member of a line written by the wire walk and the field of the
/// request it was written from: byte ranges (start, end) of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// The member in the line: an array element (`{...}`), a resource's
    /// or scope's value (`{...}`), or a log body's `"body":{...}`.
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
    // SECURITY: what the walk guarantees (each piece ends after the one
    // before in the line), checked rather than assumed.
    if pieces.windows(2).any(|w| w[0].json.1 >= w[1].json.1) {
        return None;
    }
    cut_fields(body, pieces.iter().map(|p| p.pb), cuts)
}

/// The request `body` without the fields `cuts` (whole fields: key,
/// length and value), the length of every message around them rewritten;
/// `None` when a cut is not a whole field inside its messages, or two
/// overlap.
///
/// `frames` are the fields holding messages a cut may lie in (the
/// resources, scopes, groups, spans, events, links, attributes and log
/// bodies), each after its own members, so that each ends no earlier
/// than the one before: the order [`super::transcode`]'s pieces and the
/// gate's wire judge (`gate::otlp::wire`) both give them in.
pub fn cut_fields(
    body: &[u8],
    frames: impl Iterator<Item = (usize, usize)> + Clone,
    mut cuts: Vec<(usize, usize)>,
) -> Option<Vec<u8>> {
    cuts.sort_unstable();
    if cuts.windows(2).any(|w| w[0].1 > w[1].0) {
        return None;
    }
    // SECURITY: what the passes below rely on (each frame ends no earlier
    // than the one before), checked rather than assumed.
    let mut prev = 0;
    for (_, end) in frames.clone() {
        if end < prev {
            return None;
        }
        prev = end;
    }
    // The messages around the cuts, whose lengths change: the frames that
    // hold a cut (a group, a span, an event, a link, a resource, a
    // scope). Frames end in the request in the order they were written
    // (a message after its members), so one pass finds them: the last cut
    // that ends within a frame lies in it if it starts within it.
    let mut containers: Vec<Node> = Vec::new();
    let mut last = None;
    let mut next_cut = 0;
    for (start, end) in frames {
        while cuts.get(next_cut).is_some_and(|c| c.1 <= end) {
            last = cuts.get(next_cut);
            next_cut += 1;
        }
        if last.is_some_and(|&c| c.0 >= start && c != (start, end)) {
            containers.push(Node {
                start,
                end,
                cut: false,
            });
        }
    }
    // Parents before children, then merged with the cuts (in order).
    // Found children first (in the order the frames end), the containers
    // are runs already in order (a group's spans) with their parents after
    // them: a merge sort finds the runs and merges them in about one pass,
    // where the unstable sort did a quicksort (200 instructions a span of
    // `serve_bench`'s request). No two containers are the same frame, so
    // the order is the same.
    containers.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
    let mut nodes = Vec::with_capacity(containers.len() + cuts.len());
    let mut held = containers.into_iter().peekable();
    for &(start, end) in &cuts {
        while let Some(c) = held.next_if(|c| c.start <= start) {
            nodes.push(c);
        }
        nodes.push(Node {
            start,
            end,
            cut: true,
        });
    }
    nodes.extend(held);
    let mut sizes = vec![0usize; nodes.len()];
    let (next, removed) = shrink(body, &nodes, 0, body.len(), &mut sizes)?;
    if next != nodes.len() {
        return None;
    }
    let mut out = Vec::with_capacity(body.len() - removed);
    emit(body, &nodes, 0, (0, body.len()), &sizes, &mut out)?;
    (out.len() == body.len() - removed).then_some(out)
}

/// A field of the request that is cut out, or a message around cuts.
#[derive(Debug, Clone, Copy)]
struct Node {
    start: usize,
    end: usize,
    cut: bool,
}

/// Where the message in the field `n` starts: after its key and length.
/// SECURITY: the field must be length-delimited and end where its length
/// says, or nothing is cut.
fn payload_start(body: &[u8], n: Node) -> Option<(usize, usize)> {
    let field = body.get(n.start..n.end)?;
    let mut rest = field;
    let key = decode_varint(&mut rest).ok()?;
    if key & 7 != WireType::LengthDelimited as u64 {
        return None;
    }
    let key_end = field.len() - rest.len();
    let len = usize::try_from(decode_varint(&mut rest).ok()?).ok()?;
    (len == rest.len()).then_some((n.start + key_end, n.end - len))
}

/// The nodes from `i` on that lie before `end` (the end of their parent's
/// message): the index after them and the bytes they take out, with the
/// new message length of each parent node in `sizes`. `None` when a node
/// crosses its parent's end.
fn shrink(
    body: &[u8],
    nodes: &[Node],
    mut i: usize,
    end: usize,
    sizes: &mut [usize],
) -> Option<(usize, usize)> {
    let mut removed = 0usize;
    while let Some(&n) = nodes.get(i).filter(|n| n.start < end) {
        if n.end > end {
            return None;
        }
        if n.cut {
            removed += n.end - n.start;
            i += 1;
            continue;
        }
        let (key_end, at) = payload_start(body, n)?;
        let (next, inner) = shrink(body, nodes, i + 1, n.end, sizes)?;
        let len = (n.end - at).checked_sub(inner)?;
        *sizes.get_mut(i)? = len;
        let now = (key_end - n.start) + encoded_len_varint(len as u64) + len;
        removed += (n.end - n.start).checked_sub(now)?;
        i = next;
    }
    Some((i, removed))
}

/// Write `body[from..to]` without the cut nodes from `i` on, each parent
/// node with its new length; the index after the nodes written.
fn emit(
    body: &[u8],
    nodes: &[Node],
    mut i: usize,
    (from, to): (usize, usize),
    sizes: &[usize],
    out: &mut Vec<u8>,
) -> Option<usize> {
    let mut at = from;
    while let Some(&n) = nodes.get(i).filter(|n| n.start < to) {
        out.extend_from_slice(body.get(at..n.start)?);
        at = n.end;
        if n.cut {
            i += 1;
            continue;
        }
        let (key_end, payload) = payload_start(body, n)?;
        out.extend_from_slice(body.get(n.start..key_end)?);
        encode_varint(*sizes.get(i)? as u64, out);
        i = emit(body, nodes, i + 1, (payload, n.end), sizes, out)?;
    }
    out.extend_from_slice(body.get(at..to)?);
    Some(i)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::super::transcode::traces_mapped;
    use super::*;

    /// Field `n`, length-delimited, holding `bytes`.
    fn field(n: u8, bytes: &[u8]) -> Vec<u8> {
        let mut out = vec![(n << 3) | 2];
        encode_varint(bytes.len() as u64, &mut out);
        out.extend_from_slice(bytes);
        out
    }

    /// A request of one span with attributes `a` (kept) and `b`.
    fn request() -> Vec<u8> {
        let kv = |k: &[u8]| field(9, &[field(1, k), field(2, &field(1, b"v"))].concat());
        let span = [field(5, b"name"), kv(b"a"), kv(b"b")].concat();
        field(1, &field(2, &field(2, &span)))
    }

    #[test]
    fn only_whole_pieces_are_cut() {
        let body = request();
        let (line, pieces) = traces_mapped(&body).unwrap();
        let text = std::str::from_utf8(&line).unwrap();
        let b = text.find(r#"{"key":"b""#).unwrap();
        let end = b + text[b..].find("}}").unwrap() + 2;
        // The attribute `b` as the gate's cut names it: cut, and the
        // lengths of the span and the groups around it rewritten.
        let out = project(&body, &pieces, &[(b, end)]).unwrap();
        let kv = |k: &[u8]| field(9, &[field(1, k), field(2, &field(1, b"v"))].concat());
        let span = [field(5, b"name"), kv(b"a")].concat();
        assert_eq!(out, field(1, &field(2, &field(2, &span))));
        // A range that is not a piece of the line: nothing is cut.
        assert_eq!(project(&body, &pieces, &[(b + 1, end)]), None);
        assert_eq!(project(&body, &pieces, &[(b, end - 1)]), None);
        // Pieces that do not name whole fields of the request (forged, or
        // of another request): nothing is cut.
        let mut bad = pieces.clone();
        for p in bad.iter_mut().filter(|p| p.json == (b, end)) {
            p.pb.1 += 1;
        }
        assert_eq!(project(&body, &bad, &[(b, end)]), None);
        let mut bad = pieces.clone();
        let outer = bad.iter_mut().max_by_key(|p| p.pb.1 - p.pb.0).unwrap();
        outer.pb.0 += 1;
        assert_eq!(project(&body, &bad, &[(b, end)]), None);
        // Two cuts that overlap: nothing is cut.
        assert_eq!(project(&body, &pieces, &[(b, end), (b, end)]), None);
    }
}
