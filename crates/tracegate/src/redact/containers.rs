//! Private keys found by what their container holds, not by their armor
//! (issue 36, seventeenth round).
//!
//! The `private_key` shapes know a key by its PEM armor (`-----BEGIN …
//! PRIVATE KEY-----`) and its other spellings. A key stored in a
//! structure has no armor: the structure says what it holds. This pass
//! finds four such structures with one vector search for their marks:
//!
//! - **An XML key** (`<RSAKeyValue>`, .NET's `ToXmlString(true)`): the
//!   element through `</RSAKeyValue>` when it holds a private component
//!   (`<D>`, `<P>`, `<Q>`, `<DP>`, `<DQ>`, `<InverseQ>`); a public key
//!   (`<Modulus>` and `<Exponent>` alone) stays.
//! - **A seed's armor** (`-----BEGIN USER NKEY SEED-----`, NATS `.creds`):
//!   any BEGIN line whose label ends in `SEED`, the base32 seed after it
//!   and the END line (NATS writes six dashes there).
//! - **A key store in base64**: a PKCS#12 (PFX) file begins with a DER
//!   sequence and the version integer 3 (`30 82 ll ll 02 01 03`), which
//!   base64 writes `MII??AgEDMI`; a Java KeyStore with its magic
//!   `FEEDFEED` and version (`/u3+7QAAAA`). The blob is the key store,
//!   whatever key holds it (`"value"`, `keystore:`, a CI variable).
//! - **A JWK with private members**: in an object that holds `"kty"`,
//!   the values of `"d"`, `"p"`, `"q"`, `"dp"`, `"dq"`, `"qi"` (the
//!   private key's parts) and `"k"` (a symmetric key); `"x"`, `"y"`,
//!   `"n"`, `"e"` (the public parts) stay.
//!
//! - **A key named by its name or its type** (issue 36, twenty-first
//!   round; [`typed_key`]): a member or a value prefix that names a
//!   private key (`"PrivKey": "CAES…"`, libp2p; `privkey:9f3a…`, a
//!   hex key after its type's prefix), or an object whose type names a
//!   private key or secret key material (`"type":
//!   "tendermint/PrivKeyEd25519"`; Tink's `"typeUrl": "…EcdsaPrivateKey"`,
//!   `"keyMaterialType": "ASYMMETRIC_PRIVATE"` or `"SYMMETRIC"`): its
//!   `"value"` (or `"key"`, `"secret"`, `"data"`, `"keyValue"`,
//!   `"material"`). By the structure of a typed key, not one tool's
//!   spelling; a public key's type (`PubKey…`, `…PublicKey`,
//!   `ASYMMETRIC_PUBLIC`) names nothing.
//!
//! - **An extended private key** (BIP32, SLIP-132: `xprv…`, `yprv…`,
//!   `zprv…`, `tprv…` and kin; issue 36, twenty-first round): the
//!   version prefix and 107 base58 characters whose checksum (the first
//!   four bytes of SHA-256 twice) holds, wherever it stands (a wallet's
//!   JSON, an output descriptor `wpkh(…/0/*)`).
//! - **An armor whose label names a key** (issue 36, twenty-first
//!   round): a `-----BEGIN …-----` line whose label holds `key` in any
//!   case and neither `PUBLIC` nor `PRIVATE KEY` (those the shapes read),
//!   such as `-----BEGIN OpenVPN Static key V1-----`: the armor through
//!   its END line, or through its body when no END line follows.
//!
//! **Cost** (what this may over-take or miss): a PKCS#12 blob of a
//! certificate alone (no key bag) goes too (a PFX is a key store by
//! intent); an `<RSAKeyValue>` written with escaped brackets (`&lt;`), a
//! JWK in an escaped JSON string (`\"kty\"`) and a seed with no armor
//! (a bare `SU…` line) are not found. A typed key: a value of 32 or
//! more key characters with a digit after a name holding `PrivKey` or
//! `privateKey` goes even when it is a key's file name without a dot
//! (`"privKey": "keys/node/ed25519/2024/primary"`); a value before its
//! object's type is found only within [`TYPED_BEFORE`] bytes of it; a key
//! whose type is spelled otherwise (`"kind": "secret"`) is not found.
//!
//! Cost in time: one vector search for five marks over every text; per
//! hit, the bytes read either side (bounded by the reaches below) are
//! charged to the work budget, and a read stops at the next hit's mark,
//! so a text of marks with no ends is read about once.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;

use super::budget::Work;

/// The marks, in the order [`find`] dispatches on.
const MARKS: &[&str] = &[
    "<RSAKeyValue>",
    "SEED-----",
    "AgEDMI",
    "/u3+7QAAAA",
    "\"kty\"",
    // A name or type that says "private key" or "secret key material"
    // ([`typed_key`]): from index [`TYPED`] on.
    "rivKey",
    "rivkey",
    "RIVKEY",
    "rivateKey",
    "_PRIVATE\"",
    "\"SYMMETRIC\"",
    // An extended private key's version prefix ([`extended_key`]), from
    // index [`EXTENDED`] on: BIP32's and SLIP-132's, main and test nets.
    "xprv",
    "yprv",
    "zprv",
    "Yprv",
    "Zprv",
    "tprv",
    "uprv",
    "vprv",
    "Uprv",
    "Vprv",
    // An armor line whose label names a key ([`key_armor`]).
    "-----BEGIN ",
];

/// The index in [`MARKS`] of the first extended key prefix.
const EXTENDED: usize = 11;
/// The index in [`MARKS`] of the armor line.
const ARMOR: usize = 21;
/// How far a key's armor body is read for its END line.
const ARMOR_REACH: usize = 8 * 1024;

/// The index in [`MARKS`] of the first mark [`typed_key`] reads.
const TYPED: usize = 5;
/// How far before a typed mark its object's `{` is looked for.
const TYPED_BEFORE: usize = 512;
/// How far after a typed mark its object's members are read.
const TYPED_AFTER: usize = 1024;

/// How far past `<RSAKeyValue>` its end is looked for: a 4096-bit key's
/// eight components are about 3.5 KB of base64.
const XML_REACH: usize = 8 * 1024;
/// How far a seed's armor reads: the BEGIN line before the mark, the
/// seed and the END line after it.
const SEED_REACH: usize = 256;
/// The longest key store blob read (a PFX with a chain of certificates
/// is a few KB; a larger one is taken up to here).
const STORE_REACH: usize = 64 * 1024;
/// How far a JWK's object is read before and after `"kty"`.
const JWK_BEFORE: usize = 512;
const JWK_AFTER: usize = 4096;

fn marks() -> Option<&'static AhoCorasick> {
    static AC: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    super::mark_search(&AC, MARKS)
}

fn b64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/')
}

/// Every private key this pass finds in `text`, as `(start, end)`: a
/// JWK's members may come before an earlier mark's span, so the caller
/// sorts (as it does every pass's regions).
pub(crate) fn find(text: &[u8], work: &Work, mut emit: impl FnMut(usize, usize)) {
    let Some(ac) = marks() else {
        // SECURITY: no search is not "nothing found" (see `mark_search`).
        work.exhaust();
        return;
    };
    let mut done = 0;
    // Where the last typed mark's read ended: a typed mark's object is
    // not read again for a later mark inside it.
    let mut typed_done = 0;
    let mut hits = ac.find_iter(text).peekable();
    while let Some(m) = hits.next() {
        let (ms, me) = (m.start(), m.end());
        if ms < done {
            continue;
        }
        // SECURITY: the caller fails closed on a spent budget.
        work.charge(16);
        if work.spent() {
            return;
        }
        // A read from this hit stops at the next hit's mark.
        let next = hits.peek().map_or(text.len(), |n| n.start());
        let found = match m.pattern().as_usize() {
            ARMOR => key_armor(text, ms, me, next, work),
            p if p >= EXTENDED => extended_key(text, ms, work),
            p if p >= TYPED => {
                if ms >= typed_done {
                    typed_done = typed_key(text, ms, me, typed_done, work, &mut emit);
                }
                None
            }
            0 => xml_key(text, ms, me, next, work),
            1 => seed_armor(text, ms, me, work),
            2 => key_store(text, ms.checked_sub(5), work),
            3 => key_store(text, Some(ms), work),
            _ => {
                jwk_private(text, ms, me, work, &mut emit);
                None
            }
        };
        if let Some((s, e)) = found {
            emit(s, e);
            done = e;
        }
    }
}

/// `<RSAKeyValue>` at `ms`: through its `</RSAKeyValue>`, found before
/// `next` (the next mark) and within [`XML_REACH`], when it holds a
/// private component.
fn xml_key(text: &[u8], ms: usize, me: usize, next: usize, work: &Work) -> Option<(usize, usize)> {
    const CLOSE: &[u8] = b"</RSAKeyValue>";
    let to = text
        .len()
        .min(me.saturating_add(XML_REACH))
        .min(next.max(me));
    let window = &text[me..to];
    let close = memchr::memmem::find(window, CLOSE);
    work.charge(close.map_or(window.len(), |c| c + CLOSE.len()));
    let body = &window[..close?];
    const PRIVATE: &[&[u8]] = &[b"<D>", b"<P>", b"<Q>", b"<DP>", b"<DQ>", b"<InverseQ>"];
    PRIVATE
        .iter()
        .any(|p| memchr::memmem::find(body, p).is_some())
        .then_some((ms, me + body.len() + CLOSE.len()))
}

/// `SEED-----` at `ms`: a BEGIN line ending so (`-----BEGIN USER NKEY
/// SEED-----`), a base32 seed of 32 or more bytes after at most a few
/// blanks, and its END line when one follows. The span runs from the
/// BEGIN line's dashes through the END line, or the seed.
fn seed_armor(text: &[u8], ms: usize, me: usize, work: &Work) -> Option<(usize, usize)> {
    // Back over the label (capitals and blanks) to `BEGIN ` and dashes.
    let line = &text[ms.saturating_sub(48)..ms];
    let begin = memchr::memmem::rfind(line, b"-----BEGIN ")?;
    let label = &line[begin + 11..];
    if !label.iter().all(|&b| b.is_ascii_uppercase() || b == b' ') {
        return None;
    }
    let start = ms - line.len() + begin;
    // Another dash before (NATS writes five or six).
    let start = if start > 0 && text[start - 1] == b'-' {
        start - 1
    } else {
        start
    };
    let mut i = me + usize::from(text.get(me) == Some(&b'-'));
    let to = text.len().min(me.saturating_add(SEED_REACH));
    work.charge(to - start);
    i += text[i..to]
        .iter()
        .take(8)
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    let seed = text[i..to]
        .iter()
        .take_while(|&&b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b))
        .count();
    if seed < 32 {
        return None;
    }
    let seed_end = i + seed;
    // The END line: blanks, dashes, `END`, the label's capitals, dashes.
    let rest = &text[seed_end..to];
    let ws = rest
        .iter()
        .take(8)
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    let after = &rest[ws..];
    let dashes = after.iter().take_while(|&&b| b == b'-').count();
    if (5..=6).contains(&dashes) && after[dashes..].starts_with(b"END ") {
        let label_end = dashes
            + 4
            + after[dashes + 4..]
                .iter()
                .take_while(|&&b| b.is_ascii_uppercase() || b == b' ')
                .count();
        let close = after[label_end..]
            .iter()
            .take_while(|&&b| b == b'-')
            .count();
        if close >= 5 {
            return Some((start, seed_end + ws + label_end + close));
        }
    }
    Some((start, seed_end))
}

/// A key store's base64 blob starting at `start` (`MII??AgEDMI`, a PFX;
/// `/u3+7QAAAA`, a Java KeyStore): at a token start (no base64 byte
/// before it), 128 or more base64 bytes and their `=` padding. The first
/// five bytes of a PFX's mark are checked here (`MII` and two length
/// bytes).
fn key_store(text: &[u8], start: Option<usize>, work: &Work) -> Option<(usize, usize)> {
    let start = start?;
    let head = text.get(start..start + 3)?;
    if head != b"MII" && head != b"/u3" {
        return None;
    }
    if start > 0 && b64(text[start - 1]) {
        return None;
    }
    let to = text.len().min(start.saturating_add(STORE_REACH));
    let run = text[start..to].iter().take_while(|&&b| b64(b)).count();
    work.charge(run);
    if run < 128 {
        return None;
    }
    let end = start + run;
    let pad = text[end..]
        .iter()
        .take(2)
        .take_while(|&&b| b == b'=')
        .count();
    Some((start, end + pad))
}

/// `"kty"` at `ms`: the JSON object around it (its `{` within
/// [`JWK_BEFORE`] bytes, no `}` between; its `}` within [`JWK_AFTER`],
/// no `{` between), and in it the string values of the private members.
fn jwk_private(
    text: &[u8],
    ms: usize,
    me: usize,
    work: &Work,
    emit: &mut impl FnMut(usize, usize),
) {
    let back = &text[ms.saturating_sub(JWK_BEFORE)..ms];
    let Some(open) = back.iter().rposition(|&b| matches!(b, b'{' | b'}')) else {
        work.charge(back.len());
        return;
    };
    work.charge(back.len() - open);
    if back[open] != b'{' {
        return;
    }
    let from = ms - back.len() + open + 1;
    let to = text.len().min(me.saturating_add(JWK_AFTER));
    let Some(close) = text[me..to].iter().position(|&b| matches!(b, b'{' | b'}')) else {
        work.charge(to - me);
        return;
    };
    work.charge(close);
    if text[me + close] != b'}' {
        return;
    }
    let obj_end = me + close;
    const PRIVATE: &[&[u8]] = &[b"d", b"p", b"q", b"dp", b"dq", b"qi", b"k"];
    // Each member name: a quoted string followed by `:`.
    string_members(text, from, obj_end, |name, vs, ve| {
        let v = &text[vs..ve];
        let key_bytes = v
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'+' | b'/' | b'='));
        if PRIVATE.contains(&name) && v.len() >= 16 && key_bytes {
            emit(vs, ve);
        }
    });
}

/// Each member of the JSON object whose members lie in
/// `text[from..obj_end]` that has a string value: `f(name, start, end)`
/// with the value's bounds inside its quotes (no escapes read). Stops at
/// a string that does not close before `obj_end`.
fn string_members(
    text: &[u8],
    from: usize,
    obj_end: usize,
    mut f: impl FnMut(&[u8], usize, usize),
) {
    let mut i = from;
    while let Some(q) = memchr::memchr(b'"', &text[i..obj_end]).map(|q| i + q) {
        let Some(qe) = memchr::memchr(b'"', &text[q + 1..obj_end]).map(|p| q + 1 + p) else {
            return;
        };
        let name = &text[q + 1..qe];
        let mut j = qe + 1;
        while j < obj_end && matches!(text[j], b' ' | b'\t' | b'\r' | b'\n') {
            j += 1;
        }
        if j < obj_end && text[j] == b':' {
            j += 1;
            while j < obj_end && matches!(text[j], b' ' | b'\t' | b'\r' | b'\n') {
                j += 1;
            }
            if j < obj_end && text[j] == b'"' {
                let vs = j + 1;
                let Some(ve) = memchr::memchr(b'"', &text[vs..obj_end]).map(|p| vs + p) else {
                    return;
                };
                f(name, vs, ve);
                i = ve + 1;
                continue;
            }
        }
        i = qe + 1;
    }
}

/// Base58's value of `b`.
fn base58_val(b: u8) -> Option<u32> {
    const ALPHABET: &[u8] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    ALPHABET.iter().position(|&a| a == b).map(|p| p as u32)
}

/// An extended private key's prefix at `ms`: the key when 111 base58
/// characters stand there, set apart from letters and digits, and their
/// checksum holds. Reads at most 112 bytes.
fn extended_key(text: &[u8], ms: usize, work: &Work) -> Option<(usize, usize)> {
    use sha2::Digest;
    const LEN: usize = 111;
    if ms > 0 && text[ms - 1].is_ascii_alphanumeric() {
        return None;
    }
    let s = text.get(ms..ms + LEN)?;
    work.charge(LEN + 1);
    if text.get(ms + LEN).is_some_and(u8::is_ascii_alphanumeric) {
        return None;
    }
    // 111 base58 digits into 82 bytes, big-endian.
    let mut bytes = [0u8; 82];
    for &b in s {
        let mut carry = base58_val(b)?;
        for byte in bytes.iter_mut().rev() {
            carry += u32::from(*byte) * 58;
            *byte = (carry & 0xFF) as u8;
            carry >>= 8;
        }
        if carry != 0 {
            return None;
        }
    }
    let (payload, check) = bytes.split_at(78);
    let sum = sha2::Sha256::digest(sha2::Sha256::digest(payload));
    // A private key's key data starts with a zero byte.
    (sum[..4] == *check && payload[45] == 0).then_some((ms, ms + LEN))
}

/// `-----BEGIN ` at `ms`: the armor when its label names a key that the
/// shapes do not read (see the module's notes), through its END line
/// before `next` (the next mark) and within [`ARMOR_REACH`], or through
/// its body of base64 or hex lines.
fn key_armor(
    text: &[u8],
    ms: usize,
    me: usize,
    next: usize,
    work: &Work,
) -> Option<(usize, usize)> {
    let to = text.len().min(me + 64);
    let label_len = memchr::memmem::find(&text[me..to], b"-----");
    work.charge(label_len.map_or(to - me, |n| n + 5));
    let label = &text[me..me + label_len?];
    let has = |w: &[u8]| label.windows(w.len()).any(|x| x.eq_ignore_ascii_case(w));
    if !has(b"key") || has(b"public") || has(b"private key") || label.contains(&b'\n') {
        return None;
    }
    let body = me + label.len() + 5;
    let to = text.len().min(body + ARMOR_REACH).min(next.max(body));
    let end = memchr::memmem::find(&text[body..to], b"-----END ");
    let stop = end.map_or(to, |e| body + e);
    // Base64 or hex lines, up to a blank line.
    let mut run = 0;
    let mut nl = 0;
    for &b in &text[body..stop] {
        match b {
            b'\n' if nl == 0 => nl = 1,
            b'\r' => {}
            b if b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=') => nl = 0,
            _ => break,
        }
        run += 1;
    }
    work.charge(run + 1);
    let key = text[body..body + run]
        .iter()
        .filter(|b| b.is_ascii_alphanumeric())
        .count();
    if key < 32 {
        return None;
    }
    if body + run == stop
        && let Some(e) = end
    {
        // The END line's closing dashes, on its line.
        let from = body + e + 9;
        let line = &text[from..text.len().min(from + 64)];
        let line = &line[..memchr::memchr(b'\n', line).unwrap_or(line.len())];
        work.charge(line.len());
        let close = memchr::memmem::find(line, b"-----").map_or(from, |c| from + c + 5);
        return Some((ms, close));
    }
    let mut e = body + run;
    while e > body && matches!(text[e - 1], b'\r' | b'\n') {
        e -= 1;
    }
    Some((ms, e))
}

/// Key characters (base64, base64url, hex).
fn key_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_')
}

/// Whether `v` reads as a key of at least `min` characters: key
/// characters only, a digit among them, not a path (`/…`).
fn key_like(v: &[u8], min: usize) -> bool {
    v.len() >= min
        && v.first() != Some(&b'/')
        && v.iter().all(|&b| key_char(b))
        && v.iter().any(u8::is_ascii_digit)
}

/// The run of key characters from `i`, up to `to`.
fn key_run(text: &[u8], i: usize, to: usize) -> usize {
    i + text[i..to].iter().take_while(|&&b| key_char(b)).count()
}

/// A typed mark at `ms..me` (`PrivKey`, `privateKey`, `_PRIVATE"`,
/// `"SYMMETRIC"`): the key its name, prefix or object type vouches for,
/// emitted. Three readings, the first that holds:
///
/// - a value prefix (`privkey:` then 32 or more key characters): the
///   characters;
/// - a name (the mark in a member name or a `name=`/`name:` key, then
///   `:` or `=` and a value of 32 or more key characters, quoted or not):
///   the value;
/// - a type inside an object: the object's `{` within [`TYPED_BEFORE`]
///   bytes before (not before `floor`, where the last typed read ended),
///   then its members through `}` within [`TYPED_AFTER`] bytes after; a
///   member named as a key's value (`"value"`, `"key"`, …) holding 16 or
///   more key characters.
///
/// Returns where the read ended. Every byte read is charged.
fn typed_key(
    text: &[u8],
    ms: usize,
    me: usize,
    floor: usize,
    work: &Work,
    emit: &mut impl FnMut(usize, usize),
) -> usize {
    let to = text.len().min(me + TYPED_AFTER);
    // A value prefix: `privkey:` and the key.
    if text.get(me) == Some(&b':') {
        let e = key_run(text, me + 1, to);
        work.charge(e - me);
        if key_like(&text[me + 1..e], 32) {
            emit(me + 1, e);
            return e;
        }
    }
    // A name: the rest of the word, a closing quote, `:` or `=`, blanks,
    // an opening quote, the value.
    let mut j = me;
    let word_end = text.len().min(me + 24);
    while j < word_end && (text[j].is_ascii_alphanumeric() || text[j] == b'_') {
        j += 1;
    }
    if matches!(text.get(j), Some(b'"' | b'\'')) {
        j += 1;
    }
    let blanks = |mut j: usize| {
        while j < to && matches!(text[j], b' ' | b'\t') {
            j += 1;
        }
        j
    };
    j = blanks(j);
    // (A mark with no capital, `privkey`, is a name only before `:`: the
    // standard level's pre-test scans every text with a `:` or a
    // capital, and a typed key must hold one of them.)
    let lower = text[ms..me].iter().all(|b| !b.is_ascii_uppercase());
    if j < to && (text[j] == b':' || (text[j] == b'=' && !lower)) {
        j = blanks(j + 1);
        if j < to && matches!(text[j], b'"' | b'\'') {
            j += 1;
        }
        let e = key_run(text, j, to);
        work.charge(e - me);
        if key_like(&text[j..e], 32) {
            emit(j, e);
            return e;
        }
        if e > j {
            return e;
        }
    }
    // A type: the object around the mark.
    let lo = ms.saturating_sub(TYPED_BEFORE).max(floor);
    let back = &text[lo..ms];
    let Some(open) = back.iter().rposition(|&b| matches!(b, b'{' | b'}')) else {
        work.charge(back.len());
        return me;
    };
    work.charge(back.len() - open);
    if back[open] != b'{' {
        return me;
    }
    let from = lo + open + 1;
    let close = text[me..to].iter().position(|&b| matches!(b, b'{' | b'}'));
    let obj_end = close.map_or(to, |c| me + c);
    work.charge(obj_end - me);
    if close.is_none_or(|c| text[me + c] != b'}') {
        return obj_end;
    }
    const VALUE: &[&[u8]] = &[
        b"value",
        b"key",
        b"keyValue",
        b"key_value",
        b"secret",
        b"data",
        b"material",
    ];
    string_members(text, from, obj_end, |name, vs, ve| {
        if VALUE.contains(&name) && key_like(&text[vs..ve], 16) {
            emit(vs, ve);
        }
    });
    obj_end
}
