//! Sealing an OTLP/JSON export request (one line, as the gate wrote it at
//! full level): per span and per log record, its content replaced by one
//! `tracegate.sealed` attribute whose `bytesValue` is the sealed value.
//!
//! A span's content is its content attributes (the policy's `[full]
//! content_attributes`) and those of its events and links; a log record's
//! is its body and its content attributes. Each is removed with its
//! position, sealed as one JSON object, and bound (associated data) to the
//! span's or log record's header: its trace id, span id and time (see
//! [`context`]), so a sealed value moved to another span, record or time
//! does not open, while it opens from any faithful rendering of the item
//! (the protobuf an OTLP sink sent, as its backend exports it). A resource or scope
//! that holds a content attribute is not sealed (the whole request is
//! refused, and goes out standard): its content would belong to no one
//! span.
//!
//! Opening puts each removed value back at its position: the opened
//! request is the one the gate wrote, as `serde_json` writes it.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use serde_json::{Map, Value};
use zeroize::Zeroizing;

use super::{Opener, SEALED_KEY, SealError, SealedValue, Sealer};

/// What a span's or log record's sealed value holds, and its context's
/// domain.
#[derive(Clone, Copy)]
enum Item {
    Span,
    Log,
}

impl Item {
    fn domain(self) -> &'static [u8] {
        match self {
            Item::Span => b"tracegate sealed otlp span\n",
            Item::Log => b"tracegate sealed otlp log record\n",
        }
    }
}

/// Whether `line` is an OTLP/JSON export request of spans or logs (its
/// first member `resourceSpans` or `resourceLogs`).
pub fn is_request(line: &[u8]) -> bool {
    let t = line.trim_ascii_start();
    let Some(rest) = t.strip_prefix(b"{") else {
        return false;
    };
    let rest = rest.trim_ascii_start();
    rest.starts_with(b"\"resourceSpans\"") || rest.starts_with(b"\"resourceLogs\"")
}

/// The segment header lines carried by an OTLP logs request, as an OTLP
/// sink sent them ([`header_request`]): each log record with event name
/// `tracegate.segment`, its body's text.
pub fn header_lines(line: &[u8]) -> Vec<String> {
    let Ok(mut v) = serde_json::from_slice::<Value>(line) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let _ = for_each_item(&mut v, &mut |item, obj, scope| {
        if !scope
            && matches!(item, Item::Log)
            && obj.get("eventName").and_then(Value::as_str) == Some(super::SEGMENT_KEY)
            && let Some(text) = obj
                .get("body")
                .and_then(|b| b.get("stringValue"))
                .and_then(Value::as_str)
        {
            out.push(text.to_owned());
        }
        Ok(())
    });
    out
}

/// Whether `line` is an export request or bare span that holds sealed
/// values, as [`seal_request`] writes them (a quick look for the sealed
/// attribute's key, which a cf sealed line never has).
pub fn is_sealed_request(line: &[u8]) -> bool {
    memchr::memmem::find(line, b"{\"key\":\"tracegate.sealed\"").is_some()
}

/// A segment header line as an OTLP/JSON logs export request, for an
/// OTLP sink: one log record (scope `tracegate`, event name
/// `tracegate.segment`) whose body is the header line as text.
pub fn header_request(header: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(header);
    let v = serde_json::json!({"resourceLogs": [{"scopeLogs": [{
        "scope": {"name": "tracegate"},
        "logRecords": [{"eventName": super::SEGMENT_KEY, "body": {"stringValue": text}}]
    }]}]});
    serde_json::to_vec(&v).unwrap_or_default()
}

/// A sealed request: the line to write, and how many sealed values it
/// holds (consecutive sequence numbers, from `first`).
#[derive(Debug)]
pub struct SealedRequest {
    /// The line, content replaced by sealed values.
    pub line: Vec<u8>,
    /// The first sealed value's sequence number.
    pub first: u64,
    /// How many sealed values it holds.
    pub count: u64,
    /// Each sealed span's or log record's place, for references.
    pub items: Vec<ItemRef>,
}

/// Where one span's or log record's content was sealed: what a reference
/// from its standard copy names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemRef {
    /// The item's header (trace id, span id, time; see [`context`]);
    /// `None`: every item of the request it is added to (a cf record's
    /// span).
    pub header: Option<String>,
    /// Its sealed value's sequence number.
    pub seq: u64,
    /// The content keys sealed (attribute names; `body` for a log body).
    pub keys: Vec<String>,
}

/// A standard copy of an OTLP request with reference attributes: each
/// span or log record that `refs` names (by its header) gets one
/// `<key>_ref` string attribute per sealed key, the value
/// `tracegate:sink/SINK/segment/ID/record/SEQ#KEY`. `None` when `record`
/// is not a request or bare span.
pub fn with_refs(
    record: &[u8],
    sink: &str,
    segment: &super::SegmentId,
    refs: &[ItemRef],
) -> Option<Vec<u8>> {
    let mut v: Value = serde_json::from_slice(record).ok()?;
    for_each_item(&mut v, &mut |item, obj, scope| {
        if scope {
            return Ok(());
        }
        let header = header_of(item, obj);
        let Some(r) = refs
            .iter()
            .find(|r| r.header.as_deref().is_none_or(|h| h == header))
        else {
            return Ok(());
        };
        let list = obj
            .entry("attributes")
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(a) = list {
            for key in &r.keys {
                let uri = format!(
                    "tracegate:sink/{sink}/segment/{segment}/record/{}#{key}",
                    r.seq
                );
                a.push(
                    serde_json::json!({"key": format!("{key}_ref"), "value": {"stringValue": uri}}),
                );
            }
        }
        Ok(())
    })
    .ok()?;
    serde_json::to_vec(&v).ok()
}

/// Seal the content of an OTLP/JSON export request. `Ok(None)`: it holds
/// no content.
pub fn seal_request(
    sealer: &mut Sealer,
    line: &[u8],
    is_content: &dyn Fn(&str) -> bool,
) -> Result<Option<SealedRequest>, SealError> {
    let mut v: Value = serde_json::from_slice(line).map_err(|_| SealError::NotAnObject)?;
    let first = sealer.sealed();
    let mut count = 0u64;
    let mut items = Vec::new();
    for_each_item(&mut v, &mut |item, obj, scope| {
        if scope {
            // SECURITY: content above a span is sealed nowhere: refused.
            return match attrs(obj)
                .iter()
                .any(|kv| kv_key(kv).is_some_and(is_content))
            {
                true => Err(SealError::BadSealed("content in a resource or scope")),
                false => Ok(()),
            };
        }
        let seq = sealer.sealed();
        if let Some(keys) = seal_item(sealer, item, obj, is_content)? {
            count += 1;
            items.push(ItemRef {
                header: Some(header_of(item, obj)),
                seq,
                keys,
            });
        }
        Ok(())
    })?;
    if count == 0 {
        return Ok(None);
    }
    let line = serde_json::to_vec(&v).map_err(|_| SealError::NotAnObject)?;
    Ok(Some(SealedRequest {
        line,
        first,
        count,
        items,
    }))
}

/// The sealed values of a sealed request, in order (no key needed).
pub fn sealed_values(line: &[u8]) -> Result<Vec<SealedValue>, SealError> {
    let mut v: Value = serde_json::from_slice(line).map_err(|_| SealError::NotAnObject)?;
    let mut out = Vec::new();
    for_each_item(&mut v, &mut |_, obj, scope| {
        if !scope && let Some((_, b64)) = find_sealed(obj)? {
            out.push(SealedValue::decode_b64(b64.as_bytes())?);
        }
        Ok(())
    })?;
    Ok(out)
}

/// The request without its sealed attributes: what `check` judges.
pub fn clear_part(line: &[u8]) -> Result<Vec<u8>, SealError> {
    let mut v: Value = serde_json::from_slice(line).map_err(|_| SealError::NotAnObject)?;
    for_each_item(&mut v, &mut |_, obj, scope| {
        if !scope && let Some((at, _)) = find_sealed(obj)? {
            remove_attr(obj, at);
        }
        Ok(())
    })?;
    serde_json::to_vec(&v).map_err(|_| SealError::NotAnObject)
}

/// Open every sealed value of a request with `opener`: the request as the
/// gate wrote it (as `serde_json` writes it), content back in place.
pub fn open_request(opener: &Opener, line: &[u8]) -> Result<Zeroizing<Vec<u8>>, SealError> {
    open_request_with(&|_| Some(opener), line)
}

/// [`open_request`] for a request whose sealed values may come from
/// several segments (a backend batches spans its own way): `opener` gives
/// the opener of a segment, `None` when no identity opens it.
pub fn open_request_with<'a>(
    opener: &dyn Fn(&super::SegmentId) -> Option<&'a Opener>,
    line: &[u8],
) -> Result<Zeroizing<Vec<u8>>, SealError> {
    let mut v: Value = serde_json::from_slice(line).map_err(|_| SealError::NotAnObject)?;
    for_each_item(&mut v, &mut |item, obj, scope| {
        if scope {
            return Ok(());
        }
        let Some((at, b64)) = find_sealed(obj)? else {
            return Ok(());
        };
        let sealed = SealedValue::decode_b64(b64.as_bytes())?;
        remove_attr(obj, at);
        let context = context(item, obj)?;
        let plain = opener(&sealed.segment)
            .ok_or(SealError::NotARecipient)?
            .open(&sealed, &context)?;
        let removed: Removed =
            serde_json::from_slice(&plain).map_err(|_| SealError::BadSealed("content"))?;
        restore(obj, removed)
    })?;
    Ok(Zeroizing::new(
        serde_json::to_vec(&v).map_err(|_| SealError::NotAnObject)?,
    ))
}

/// What one item's sealed value holds: each removed attribute with its
/// index, per list; a log record's body.
#[derive(serde::Serialize, serde::Deserialize, Default)]
struct Removed {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    attributes: Vec<(usize, Value)>,
    /// By event index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    events: Vec<(usize, Vec<(usize, Value)>)>,
    /// By link index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    links: Vec<(usize, Vec<(usize, Value)>)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    body: Option<Value>,
    /// The item had an `attributes` list (perhaps empty): while sealed, an
    /// empty one is dropped on both sides, so opening puts it back.
    #[serde(default)]
    listed: bool,
}

/// Remove the content of one span or log record, seal it and add the
/// sealed attribute; the content keys sealed. `Ok(None)`: no content.
fn seal_item(
    sealer: &mut Sealer,
    item: Item,
    obj: &mut Map<String, Value>,
    is_content: &dyn Fn(&str) -> bool,
) -> Result<Option<Vec<String>>, SealError> {
    if find_sealed(obj)?.is_some() {
        // SECURITY: never one the gate did not write (the gate strips a
        // producer's; this is the last line of defence).
        return Err(SealError::BadSealed("reserved key in the record"));
    }
    if !has_content(item, obj, is_content) {
        return Ok(None);
    }
    let listed = obj.get("attributes").is_some_and(Value::is_array);
    let mut removed = Removed {
        attributes: take_content(obj, is_content),
        listed,
        ..Removed::default()
    };
    // The item's own list gets the sealed attribute; empty, it is dropped
    // (opening drops it too, so both sides bind the same clear part).
    if obj
        .get("attributes")
        .is_some_and(|a| a.as_array().is_some_and(Vec::is_empty))
    {
        obj.remove("attributes");
    }
    if let Item::Span = item {
        for (list, out) in [
            ("events", &mut removed.events),
            ("links", &mut removed.links),
        ] {
            if let Some(Value::Array(xs)) = obj.get_mut(list) {
                for (i, x) in xs.iter_mut().enumerate() {
                    if let Value::Object(o) = x {
                        let taken = take_content(o, is_content);
                        if !taken.is_empty() {
                            out.push((i, taken));
                        }
                    }
                }
            }
        }
    } else {
        removed.body = obj.remove("body");
    }
    let mut keys: Vec<String> = Vec::new();
    let mut name = |kv: &Value| {
        if let Some(k) = kv_key(kv) {
            keys.push(k.to_owned());
        }
    };
    removed.attributes.iter().for_each(|(_, kv)| name(kv));
    for (_, kvs) in removed.events.iter().chain(&removed.links) {
        kvs.iter().for_each(|(_, kv)| name(kv));
    }
    if removed.body.is_some() {
        keys.push("body".to_owned());
    }
    if keys.is_empty() {
        return Ok(None);
    }
    let plain = Zeroizing::new(serde_json::to_vec(&removed).map_err(|_| SealError::NotAnObject)?);
    let context = context(item, obj)?;
    let names: Vec<&str> = keys.iter().map(String::as_str).collect();
    let sealed = sealer.seal(&plain, &names, &context)?;
    let attr = serde_json::json!({"key": SEALED_KEY, "value": {"bytesValue": B64.encode(&sealed)}});
    match obj.get_mut("attributes") {
        Some(Value::Array(a)) => a.push(attr),
        _ => {
            obj.insert("attributes".to_owned(), Value::Array(vec![attr]));
        }
    }
    Ok(Some(keys))
}

/// Whether an item holds content: a content attribute of its own, of one
/// of its events or links (a span), or a body (a log record).
fn has_content(item: Item, obj: &Map<String, Value>, is_content: &dyn Fn(&str) -> bool) -> bool {
    let any = |o: &Map<String, Value>| attrs(o).iter().any(|kv| kv_key(kv).is_some_and(is_content));
    match item {
        Item::Log => any(obj) || obj.contains_key("body"),
        Item::Span => {
            any(obj)
                || ["events", "links"].iter().any(|list| {
                    obj.get(*list)
                        .and_then(Value::as_array)
                        .is_some_and(|xs| xs.iter().filter_map(Value::as_object).any(any))
                })
        }
    }
}

/// The associated data of an item: its domain, then its header as the
/// sealed-capture design names it: trace id, span id and record time
/// (a span's start, a log record's time, else its observed time), ids in
/// lowercase hex and times in decimal nanoseconds, whatever the JSON
/// spelling. So a sealed value opens from any faithful rendering of the
/// item (a file sink's line, a trace backend's JSON export of the
/// protobuf it got) and from no other span, record or time.
fn context(item: Item, obj: &Map<String, Value>) -> Result<Vec<u8>, SealError> {
    let mut out = item.domain().to_vec();
    out.extend_from_slice(header_of(item, obj).as_bytes());
    Ok(out)
}

/// An item's header, normalized: `traceId=<hex>\nspanId=<hex>\ntime=<ns>\n`.
fn header_of(item: Item, obj: &Map<String, Value>) -> String {
    let id = |k: &str| {
        obj.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_ascii_lowercase()
    };
    let nanos = |k: &str| match obj.get(k) {
        Some(Value::String(t)) => t.parse::<u64>().ok(),
        Some(Value::Number(n)) => n.as_u64(),
        _ => None,
    };
    let time = match item {
        Item::Span => nanos("startTimeUnixNano"),
        Item::Log => nanos("timeUnixNano")
            .filter(|t| *t != 0)
            .or_else(|| nanos("observedTimeUnixNano")),
    }
    .unwrap_or(0);
    format!(
        "traceId={}\nspanId={}\ntime={time}\n",
        id("traceId"),
        id("spanId")
    )
}

/// Put a sealed value's content back in place.
fn restore(obj: &mut Map<String, Value>, removed: Removed) -> Result<(), SealError> {
    insert_at(obj, removed.attributes);
    for (list, taken) in [("events", removed.events), ("links", removed.links)] {
        for (i, kvs) in taken {
            let Some(Value::Object(o)) = obj.get_mut(list).and_then(|l| l.get_mut(i)) else {
                return Err(SealError::BadSealed("content for a missing event or link"));
            };
            insert_at(o, kvs);
        }
    }
    if let Some(b) = removed.body {
        obj.insert("body".to_owned(), b);
    }
    if removed.listed && !obj.contains_key("attributes") {
        obj.insert("attributes".to_owned(), Value::Array(Vec::new()));
    }
    Ok(())
}

/// Remove the content attributes of `obj`, with their indexes.
fn take_content(
    obj: &mut Map<String, Value>,
    is_content: &dyn Fn(&str) -> bool,
) -> Vec<(usize, Value)> {
    let Some(Value::Array(a)) = obj.get_mut("attributes") else {
        return Vec::new();
    };
    let mut taken = Vec::new();
    let mut kept = Vec::with_capacity(a.len());
    for (i, kv) in std::mem::take(a).into_iter().enumerate() {
        if kv_key(&kv).is_some_and(is_content) {
            taken.push((i, kv));
        } else {
            kept.push(kv);
        }
    }
    if let Some(Value::Array(a)) = obj.get_mut("attributes") {
        *a = kept;
    }
    taken
}

/// Insert attributes back at their indexes (ascending).
fn insert_at(obj: &mut Map<String, Value>, mut kvs: Vec<(usize, Value)>) {
    if kvs.is_empty() {
        return;
    }
    kvs.sort_by_key(|(i, _)| *i);
    let a = obj
        .entry("attributes")
        .or_insert_with(|| Value::Array(Vec::new()));
    if !a.is_array() {
        *a = Value::Array(Vec::new());
    }
    if let Value::Array(a) = a {
        for (i, kv) in kvs {
            a.insert(i.min(a.len()), kv);
        }
    }
}

/// The one `tracegate.sealed` attribute of `obj`: its index and base64.
/// Two of them, or one that is not `bytesValue`, is an error.
fn find_sealed(obj: &Map<String, Value>) -> Result<Option<(usize, String)>, SealError> {
    let mut found = None;
    for (i, kv) in attrs(obj).iter().enumerate() {
        if kv_key(kv) != Some(SEALED_KEY) {
            continue;
        }
        if found.is_some() {
            return Err(SealError::BadSealed("two sealed attributes on one item"));
        }
        let b64 = kv
            .get("value")
            .and_then(|v| v.get("bytesValue"))
            .and_then(Value::as_str)
            .ok_or(SealError::BadSealed("sealed attribute is not bytesValue"))?;
        found = Some((i, b64.to_owned()));
    }
    Ok(found)
}

fn remove_attr(obj: &mut Map<String, Value>, at: usize) {
    if let Some(Value::Array(a)) = obj.get_mut("attributes") {
        if at < a.len() {
            a.remove(at);
        }
        if a.is_empty() {
            obj.remove("attributes");
        }
    }
}

fn attrs(obj: &Map<String, Value>) -> &[Value] {
    obj.get("attributes")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn kv_key(kv: &Value) -> Option<&str> {
    kv.get("key").and_then(Value::as_str)
}

/// What [`for_each_item`] calls for each item: its kind, the object, and
/// whether it is a resource or scope.
type Visit<'a> = dyn FnMut(Item, &mut Map<String, Value>, bool) -> Result<(), SealError> + 'a;

/// Visit every resource and scope (`scope = true`: only looked at), then
/// every span or log record of a request; or the one span a bare span line
/// is (`name` and an `attributes` array, as the gate reads it). Anything
/// else is an error.
fn for_each_item(v: &mut Value, f: &mut Visit<'_>) -> Result<(), SealError> {
    let top = v.as_object_mut().ok_or(SealError::NotAnObject)?;
    let request = top.contains_key("resourceSpans") || top.contains_key("resourceLogs");
    if !request {
        let bare = top.contains_key("name") && top.get("attributes").is_some_and(Value::is_array);
        return match bare {
            true => f(Item::Span, top, false),
            false => Err(SealError::BadSealed("not an export request or a bare span")),
        };
    }
    for (key, value) in top.iter_mut() {
        let (item, scopes, items) = match key.as_str() {
            "resourceSpans" => (Item::Span, "scopeSpans", "spans"),
            "resourceLogs" => (Item::Log, "scopeLogs", "logRecords"),
            _ => {
                return Err(SealError::BadSealed(
                    "not an export request of spans or logs",
                ));
            }
        };
        let resources = value.as_array_mut().ok_or(SealError::NotAnObject)?;
        for r in resources {
            let r = r.as_object_mut().ok_or(SealError::NotAnObject)?;
            if let Some(Value::Object(res)) = r.get_mut("resource") {
                f(item, res, true)?;
            }
            let Some(Value::Array(ss)) = r.get_mut(scopes) else {
                continue;
            };
            for s in ss {
                let s = s.as_object_mut().ok_or(SealError::NotAnObject)?;
                if let Some(Value::Object(scope)) = s.get_mut("scope") {
                    f(item, scope, true)?;
                }
                let Some(Value::Array(xs)) = s.get_mut(items) else {
                    continue;
                };
                for x in xs {
                    let x = x.as_object_mut().ok_or(SealError::NotAnObject)?;
                    f(item, x, false)?;
                }
            }
        }
    }
    Ok(())
}
