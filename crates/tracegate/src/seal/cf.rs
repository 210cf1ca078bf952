//! Sealing a JSON record (a cf record at full level): its content members
//! replaced by one sealed value, every other member kept in clear, byte for
//! byte.
//!
//! A sealed line is the record's clear members in their order, then
//! `"tracegate.sealed":"<base64>"` as the last member. The clear part bound
//! into the sealed value is the line up to that member, closed: the record
//! as it would be without its content. Opening puts the content members
//! back after the clear ones, each exactly as the gate wrote it.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use zeroize::Zeroizing;

use super::{Opener, SealError, SealedValue, Sealer};
use crate::record::tape::{self, Kind, Tape};

/// The member that ends a sealed line, up to its value.
const SEALED_MEMBER: &[u8] = b"\"tracegate.sealed\":\"";

/// Seal the content members of `line` (a JSON object the gate wrote;
/// `is_content` names content keys). `Ok(None)`: no content member, the
/// line goes out as it is.
pub fn seal_line(
    sealer: &mut Sealer,
    tape: &mut Tape,
    line: &[u8],
    is_content: &dyn Fn(&str) -> bool,
) -> Result<Option<Vec<u8>>, SealError> {
    Ok(seal_line_keys(sealer, tape, line, is_content)?.map(|(l, _)| l))
}

/// A sealed line and the names of the content members sealed in it, in
/// their order.
pub type SealedLine = (Vec<u8>, Vec<String>);

/// [`seal_line`], with the names of the content members it sealed.
pub fn seal_line_keys(
    sealer: &mut Sealer,
    tape: &mut Tape,
    line: &[u8],
    is_content: &dyn Fn(&str) -> bool,
) -> Result<Option<SealedLine>, SealError> {
    seal_line_with(&mut |c, k, x| sealer.seal(c, k, x), tape, line, is_content)
}

/// How a line's content is sealed: `(content, keys, context)` to the
/// sealed value ([`Sealer::seal`], or a reserved number's
/// [`super::SealHandle::seal_at`]).
pub type SealFn<'a> = dyn FnMut(&[u8], &[&str], &[u8]) -> Result<Vec<u8>, SealError> + 'a;

/// [`seal_line_keys`] with the sealing step given.
pub fn seal_line_with(
    seal: &mut SealFn<'_>,
    tape: &mut Tape,
    line: &[u8],
    is_content: &dyn Fn(&str) -> bool,
) -> Result<Option<SealedLine>, SealError> {
    let text = tape.scan(line).map_err(|_| SealError::NotAnObject)?;
    let toks = tape.tokens();
    if toks.first().map(|t| t.kind) != Some(Kind::Object) {
        return Err(SealError::NotAnObject);
    }
    let mut clear: Vec<u8> = Vec::with_capacity(line.len());
    let mut content: Zeroizing<Vec<u8>> = Zeroizing::new(Vec::with_capacity(line.len()));
    let mut keys: Vec<String> = Vec::new();
    clear.push(b'{');
    content.push(b'{');
    for (k, v) in tape.members(0) {
        let (Some(kt), Some(vt)) = (toks.get(k), toks.get(v)) else {
            return Err(SealError::NotAnObject);
        };
        let name = tape::string_value(text, kt);
        let member = line
            .get(kt.start as usize..vt.end as usize)
            .ok_or(SealError::NotAnObject)?;
        if super::is_reserved_key(&name) {
            // SECURITY: a reserved key in a record is never written: a
            // planted one could pass for a sealed value or a header.
            return Err(SealError::BadSealed("reserved key in the record"));
        }
        if is_content(&name) {
            if content.len() > 1 {
                content.push(b',');
            }
            content.extend_from_slice(member);
            keys.push(name.into_owned());
        } else {
            if clear.len() > 1 {
                clear.push(b',');
            }
            clear.extend_from_slice(member);
        }
    }
    if keys.is_empty() {
        return Ok(None);
    }
    content.push(b'}');
    let mut context = clear.clone();
    context.push(b'}');
    let names: Vec<&str> = keys.iter().map(String::as_str).collect();
    let sealed = seal(&content, &names, &context)?;
    let mut out = clear;
    if out.len() > 1 {
        out.push(b',');
    }
    out.extend_from_slice(SEALED_MEMBER);
    out.extend_from_slice(B64.encode(&sealed).as_bytes());
    out.extend_from_slice(b"\"}");
    Ok(Some((out, keys)))
}

/// A standard record (a JSON object, as the gate wrote it) with a
/// reference member per content key in `keys`, sealed as record `seq` of
/// `segment` in sink `sink`:
/// `"<key>_ref":"tracegate:sink/…/segment/…/record/…#<key>"`, after its
/// own members. `None` when `record` is not one JSON object.
pub fn with_refs(
    record: &[u8],
    sink: &str,
    segment: &super::SegmentId,
    seq: u64,
    keys: &[String],
) -> Option<Vec<u8>> {
    let end = record.trim_ascii_end();
    let body = end.strip_suffix(b"}")?;
    if !record.trim_ascii_start().starts_with(b"{") {
        return None;
    }
    let empty = body.trim_ascii().len() == 1;
    let mut out = Vec::with_capacity(record.len() + 96 * keys.len());
    out.extend_from_slice(body);
    for (i, key) in keys.iter().enumerate() {
        if i > 0 || !empty {
            out.push(b',');
        }
        let name = serde_json::to_string(&format!("{key}_ref")).ok()?;
        let uri = serde_json::to_string(&format!(
            "tracegate:sink/{sink}/segment/{segment}/record/{seq}#{key}"
        ))
        .ok()?;
        out.extend_from_slice(name.as_bytes());
        out.push(b':');
        out.extend_from_slice(uri.as_bytes());
    }
    out.push(b'}');
    Some(out)
}

/// A sealed line split: its clear part (closed, as bound into the sealed
/// value) and its sealed value.
#[derive(Debug)]
pub struct SplitLine {
    /// The clear members as one object.
    pub clear: Vec<u8>,
    /// The sealed value.
    pub sealed: SealedValue,
}

/// Whether `line` ends with a sealed member (`"tracegate.sealed":"..."}`).
pub fn is_sealed_line(line: &[u8]) -> bool {
    find_sealed(line).is_some()
}

fn find_sealed(line: &[u8]) -> Option<(usize, &[u8])> {
    let line = line.trim_ascii_end();
    let body = line.strip_suffix(b"\"}")?;
    // Base64 holds no quote: the last sealed member is the one that ends
    // the line.
    let at = memchr::memmem::rfind(body, SEALED_MEMBER)?;
    let value = body.get(at + SEALED_MEMBER.len()..)?;
    if value.contains(&b'"') {
        return None;
    }
    let before = line.get(..at)?;
    match before.last() {
        Some(b',') | Some(b'{') => Some((at, value)),
        _ => None,
    }
}

/// Split a sealed line into its clear part and sealed value.
pub fn split_line(line: &[u8]) -> Result<SplitLine, SealError> {
    let (at, value) =
        find_sealed(line).ok_or(SealError::BadSealed("no sealed member at the end"))?;
    let sealed = SealedValue::decode_b64(value)?;
    let mut clear = line.get(..at).unwrap_or_default().to_vec();
    if clear.last() == Some(&b',') {
        clear.pop();
    }
    clear.push(b'}');
    if !clear.starts_with(b"{") {
        return Err(SealError::BadSealed("not an object"));
    }
    Ok(SplitLine { clear, sealed })
}

/// Open a split line: the record with its content members back, after the
/// clear ones.
pub fn open_line(opener: &Opener, split: &SplitLine) -> Result<Zeroizing<Vec<u8>>, SealError> {
    let content = opener.open(&split.sealed, &split.clear)?;
    let inner = content
        .strip_prefix(b"{")
        .and_then(|c| c.strip_suffix(b"}"))
        .ok_or(SealError::Tampered)?;
    let mut out = Zeroizing::new(Vec::with_capacity(split.clear.len() + content.len()));
    out.extend_from_slice(&split.clear[..split.clear.len() - 1]);
    if split.clear.len() > 2 && !inner.is_empty() {
        out.push(b',');
    }
    out.extend_from_slice(inner);
    out.push(b'}');
    Ok(out)
}
