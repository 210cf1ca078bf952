//! Values found by what carries them: an encoding, a call, a spelling of
//! the at-sign (issue 36, eighteenth round).
//!
//! The shapes know a value by its own spelling. Each held-out family
//! brought the same values carried in ways no shape reads; this pass
//! finds them by the class of carrier, with one vector search for its
//! marks:
//!
//! - **Credentials in base64 after `Basic `** (`api_key`): whatever key
//!   holds them (`auth: "Basic …"` in an xAPI/LRS config, a header, a
//!   YAML value): the base64 run decodes to printable ASCII holding a
//!   `user:password` pair.
//! - **A call that takes credentials** (`api_key`): `basicAuth("u",
//!   "p")`, `BasicAuth(…)`, `basic_auth(…)` (Gatling, Go's `SetBasicAuth`,
//!   Rust's reqwest): the second quoted argument, when it looks random.
//! - **A token inside base64** (`jwt`): a base64 or base64url run that
//!   starts a token and is the base64 of a JWT (`ZXlK…`, base64 of
//!   `eyJ`: Kubernetes' `base64url.bearer.authorization.k8s.io.` WebSocket
//!   subprotocol), or the base64 of JSON (`eyJ…` with no dot) that holds a
//!   JWT (a session cookie `{"token": "eyJ…"}`): a bounded window is
//!   decoded and the whole run goes.
//! - **An at-sign of another spelling** (`email`): the small (U+FE6B)
//!   and full-width (U+FF20) commercial at between a local part and a
//!   domain; and a quoted local part (`"night shift"@example.org`, RFC
//!   5322), the quotes included.
//!
//! **Cost** (what this may over-take or miss): base64 after `Basic ` that
//! decodes to text with a `:` goes (it is what a Basic credential is); a
//! base64 JSON blob that merely quotes a token goes whole; a call's
//! second argument that is no password but looks random goes. Not found:
//! a token in base64 that does not start its run, credentials in a call
//! of another name, an at-sign written as a word (`[at]`).
//!
//! Cost in time: one vector search for the marks over every text; per
//! hit, the bytes read (bounded by the reaches below) are charged to the
//! work budget, and a base64 run read once is skipped by later hits.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;

use super::budget::Work;
use super::validate::{placeholder, random_looking};

/// The marks, in the order [`find`] dispatches on.
const MARKS: &[&str] = &[
    "Basic ",
    "basicAuth(",
    "BasicAuth(",
    "basic_auth(",
    "ZXlK",
    "eyJ",
    "\u{FE6B}",
    "\u{FF20}",
    "\"@",
];

/// What a hit found: the detector it is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    ApiKey,
    Jwt,
    Email,
    UrlCredentials,
    PrivateKey,
}

/// The longest base64 run read from a hit (a session cookie or a bearer
/// token's base64 is one or two KB); a longer run is read to here.
const RUN_REACH: usize = 8 * 1024;
/// How many base64 characters are decoded to look for a token (the
/// token's header, or the JSON key before it, sits near the start).
const DECODE_WINDOW: usize = 1024;
/// The longest credential pair read after `Basic ` (base64 characters).
const BASIC_REACH: usize = 512;
/// The longest quoted argument (user or password) a call's hit reads.
const ARG_REACH: usize = 256;
/// The longest local part and domain an at-sign's hit reads.
const LOCAL_REACH: usize = 64;
const DOMAIN_REACH: usize = 255;

fn marks() -> Option<&'static AhoCorasick> {
    static AC: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    super::mark_search(&AC, MARKS)
}

/// A base64 or base64url character.
fn b64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_')
}

/// The bytes `s` (base64 or base64url, padding optional) decodes to, a
/// trailing partial group dropped; empty when `s` mixes the two
/// alphabets or is no base64.
fn decode(s: &[u8]) -> Vec<u8> {
    use base64::Engine as _;
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    const LOOSE: GeneralPurposeConfig = GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true);
    const STANDARD: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::STANDARD, LOOSE);
    const URL_SAFE: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::URL_SAFE, LOOSE);
    let s = s
        .strip_suffix(b"==")
        .or_else(|| s.strip_suffix(b"="))
        .unwrap_or(s);
    // Whole groups and a final group of two or three characters decode;
    // a single character left over is no byte.
    let s = if s.len() % 4 == 1 {
        &s[..s.len() - 1]
    } else {
        s
    };
    let engine = if s.iter().any(|b| matches!(b, b'-' | b'_')) {
        &URL_SAFE
    } else {
        &STANDARD
    };
    engine.decode(s).unwrap_or_default()
}

/// Whether `s` holds a compact JWT: `eyJ`, ten or more base64url
/// characters, a dot, ten or more again.
fn holds_jwt(s: &[u8]) -> bool {
    let url = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_');
    memchr::memmem::find_iter(s, b"eyJ").any(|at| {
        let rest = &s[at..];
        let head = rest.iter().take_while(|b| url(b)).count();
        head >= 13
            && rest.get(head) == Some(&b'.')
            && rest[head + 1..].iter().take_while(|b| url(b)).count() >= 10
    })
}

/// Every value this pass finds in `text` of a kind `wanted` takes, as
/// `(start, end, what)`, in increasing order of the mark that found it.
/// A kind no detector of the policy takes is not looked for: the byte
/// searches of [`escaped`] and [`der_keys`] run only for theirs.
pub(crate) fn find(
    text: &[u8],
    work: &Work,
    wanted: impl Fn(Found) -> bool,
    mut emit: impl FnMut(usize, usize, Found),
) {
    let Some(ac) = marks() else {
        // SECURITY: no search is not "nothing found" (see `mark_search`).
        work.exhaust();
        return;
    };
    let mut done = 0;
    for m in ac.find_iter(text) {
        let (ms, me) = (m.start(), m.end());
        let kind = match m.pattern().as_usize() {
            0..=3 => Found::ApiKey,
            4 | 5 => Found::Jwt,
            _ => Found::Email,
        };
        if ms < done || !wanted(kind) {
            continue;
        }
        // SECURITY: the caller fails closed on a spent budget.
        work.charge(16);
        if work.spent() {
            return;
        }
        let found = match m.pattern().as_usize() {
            0 => basic_credentials(text, me, work).map(|(s, e)| (s, e, Found::ApiKey)),
            1..=3 => call_password(text, me, work).map(|(s, e)| (s, e, Found::ApiKey)),
            4 | 5 => {
                // A token's base64 starts its run.
                if ms > 0 && b64(text[ms - 1]) {
                    None
                } else {
                    let (found, end) = encoded_token(text, ms, m.pattern().as_usize() == 4, work);
                    done = done.max(end);
                    found.map(|(s, e)| (s, e, Found::Jwt))
                }
            }
            6 | 7 => wide_at(text, ms, me, work).map(|(s, e)| (s, e, Found::Email)),
            _ => quoted_local(text, ms, work).map(|(s, e)| (s, e, Found::Email)),
        };
        if let Some((s, e, what)) = found {
            emit(s, e, what);
            done = done.max(e);
        }
    }
    let (emails, urls) = (wanted(Found::Email), wanted(Found::UrlCredentials));
    if emails || urls {
        escaped(text, work, emails, urls, &mut emit);
    }
    if wanted(Found::PrivateKey) {
        der_keys(text, work, &mut emit);
    }
}

/// The encoded at-signs and escaped URLs (issue 36, nineteenth round),
/// found by one byte search for `\`, `&` and `@` rather than as more
/// marks of the vector search above: with their 2-byte prefixes the
/// marks' search cost 0.9 instructions a byte more on the full bench (its
/// buckets' false candidates), the byte search a tenth of that. At each
/// hit the bytes after it are compared: `\u0040` (a JSON or Java escape),
/// `&#64;`, `&#x40;`, `&commat;` (an HTML character reference), `@@`
/// (Texinfo's escaped at-sign), an at-sign encoded between a local part
/// and a domain ([`encoded_at`]); `:\/\/` (a URL's slashes escaped in a
/// JSON string, [`escaped_url_password`]). Not percent-encoded
/// (`user%40host` in a URL's user name): heldout10 and heldout11 leave it
/// unlabelled where heldout20 labels it, in the same structure.
fn escaped(
    text: &[u8],
    work: &Work,
    emails: bool,
    urls: bool,
    emit: &mut impl FnMut(usize, usize, Found),
) {
    let mut done = 0;
    for at in memchr::memchr3_iter(b'\\', b'&', b'@', text) {
        if at < done {
            continue;
        }
        let rest = &text[at..];
        let found = if emails && let Some(m) = at_escape(rest) {
            // SECURITY: the caller fails closed on a spent budget.
            work.charge(16);
            encoded_at(text, at, at + m, work).map(|(s, e)| (s, e, Found::Email))
        } else if urls && rest.starts_with(b"\\/\\/") && at > 0 && text[at - 1] == b':' {
            work.charge(16);
            escaped_url_password(text, at + 4, work).map(|(s, e)| (s, e, Found::UrlCredentials))
        } else {
            None
        };
        if work.spent() {
            return;
        }
        if let Some((s, e, what)) = found {
            emit(s, e, what);
            done = e;
        }
    }
}

/// The length of the at-sign's escape that starts `rest`, in any escape
/// syntax whose value is U+0040 (issue 36, twentieth round: by the escape's
/// class, not by one language's spelling; [`super::escapes::escape_of`]:
/// `\u0040`, `\x40`, `\100`, CSS's `\40 `, `&#0064;`, `&commat;`, …), or
/// Texinfo's `@@`. Cost: a path
/// segment `\100` or `\40` between a word and a host name
/// (`logs\100web.example.org`) reads as an address.
fn at_escape(rest: &[u8]) -> Option<usize> {
    if rest.starts_with(b"@@") {
        return Some(2);
    }
    super::escapes::escape_of(rest, |c| c == 0x40).map(|(n, _)| n)
}

/// Base64 runs that may be a private key's DER ([`der_private_key`]),
/// found by a byte search for `M` (every DER SEQUENCE's base64 starts
/// with it) and a look at the bytes after: `MII` (a two-byte length),
/// `MIG` (one byte, 128-255) or `MHcCAQ` (SEC1 P-256, under 128), at the
/// start of a run. A run read is skipped by later hits.
fn der_keys(text: &[u8], work: &Work, emit: &mut impl FnMut(usize, usize, Found)) {
    let mut done = 0;
    for at in memchr::memchr_iter(b'M', text) {
        if at < done {
            continue;
        }
        let rest = &text[at..];
        if !(rest.starts_with(b"MII") || rest.starts_with(b"MIG") || rest.starts_with(b"MHcCAQ"))
            || (at > 0 && b64(text[at - 1]))
        {
            continue;
        }
        // SECURITY: the caller fails closed on a spent budget.
        work.charge(16);
        let (found, end) = der_private_key(text, at, work);
        done = end;
        if work.spent() {
            return;
        }
        if let Some((s, e)) = found {
            emit(s, e, Found::PrivateKey);
        }
    }
}

/// `Basic ` then a base64 run (with `=` padding) of 8 to
/// [`BASIC_REACH`] characters that decodes to printable ASCII holding
/// `user:password` (a `:` with something either side).
fn basic_credentials(text: &[u8], me: usize, work: &Work) -> Option<(usize, usize)> {
    let to = text.len().min(me.saturating_add(BASIC_REACH + 1));
    let window = &text[me..to];
    let n = window
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/'))
        .count();
    let pad = window[n..]
        .iter()
        .take(2)
        .take_while(|&&b| b == b'=')
        .count();
    work.charge(n + pad);
    if !(8..=BASIC_REACH).contains(&n) || window.get(n + pad).is_some_and(|&b| b64(b)) {
        return None;
    }
    let plain = decode(&window[..n]);
    let colon = memchr::memchr(b':', &plain)?;
    let printable = plain.iter().all(|b| (0x20..0x7F).contains(b));
    (printable && colon > 0 && colon + 1 < plain.len()).then_some((me, me + n + pad))
}

/// A quoted argument at `at` (after blanks): its content's span.
fn quoted_arg(text: &[u8], at: usize) -> Option<(usize, usize)> {
    let blanks = text
        .get(at..)?
        .iter()
        .take(8)
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let q = *text.get(at + blanks)?;
    if !matches!(q, b'"' | b'\'') {
        return None;
    }
    let s = at + blanks + 1;
    let to = text.len().min(s + ARG_REACH);
    let n = memchr::memchr3(q, b'\n', b'\\', &text[s..to])?;
    (text[s + n] == q).then_some((s, s + n))
}

/// A credentials call's `(` ends at `me`: a quoted user, `,`, and the
/// quoted password, which must look random and be no placeholder.
fn call_password(text: &[u8], me: usize, work: &Work) -> Option<(usize, usize)> {
    let (_, ue) = quoted_arg(text, me)?;
    let mut i = ue + 1;
    i += text[i..]
        .iter()
        .take(8)
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    if text.get(i) != Some(&b',') {
        return None;
    }
    let (s, e) = quoted_arg(text, i + 1)?;
    work.charge(e - me);
    let v = &text[s..e];
    (random_looking(v) && !placeholder(v)).then_some((s, e))
}

/// A token's base64 at `ms` (`ZXlK`: the token itself; `eyJ`: JSON that
/// may hold one): the run, when its decoded window holds a JWT, and the
/// end of the run read (later hits inside it are skipped). A run that a
/// dot follows is a plain JWT (the shapes' own) and is left.
fn encoded_token(
    text: &[u8],
    ms: usize,
    of_token: bool,
    work: &Work,
) -> (Option<(usize, usize)>, usize) {
    let to = text.len().min(ms.saturating_add(RUN_REACH));
    let n = text[ms..to].iter().take_while(|&&b| b64(b)).count();
    let pad = text[ms + n..]
        .iter()
        .take(2)
        .take_while(|&&b| b == b'=')
        .count();
    let end = ms + n + pad;
    work.charge(n);
    if text.get(end) == Some(&b'.') || n < 24 {
        return (None, end);
    }
    let window = &text[ms..ms + n.min(DECODE_WINDOW)];
    work.charge(window.len());
    let plain = decode(window);
    let ok = if of_token {
        plain.starts_with(b"eyJ") && holds_jwt(&plain)
    } else {
        plain.first() == Some(&b'{') && holds_jwt(&plain)
    };
    (ok.then_some((ms, end)), end)
}

/// A byte of an unquoted local part (RFC 5322's `atext` and `.`: an
/// address behind another at-sign is read as the standard writes it,
/// `o'brien`, `qsl#mgr`, `ops/alerts`).
fn local_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'.' | b'!'
                | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'/'
                | b'='
                | b'?'
                | b'^'
                | b'_'
                | b'`'
                | b'{'
                | b'|'
                | b'}'
                | b'~'
                | b'-'
        )
}

/// A domain from `from`: labels of letters, digits and `-` joined by
/// dots, ending in a label of two or more letters; its end.
fn domain_end(text: &[u8], from: usize, work: &Work) -> Option<usize> {
    let to = text.len().min(from.saturating_add(DOMAIN_REACH));
    let run = text[from..to]
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
        .count();
    work.charge(run);
    let d = text[from..from + run].trim_ascii_end();
    let d = &d[..d.len() - d.iter().rev().take_while(|&&b| b == b'.').count()];
    let dot = memchr::memrchr(b'.', d)?;
    let (host, tld) = (&d[..dot], &d[dot + 1..]);
    (!host.is_empty()
        && !host.starts_with(b".")
        && tld.len() >= 2
        && tld.iter().all(u8::is_ascii_alphabetic))
    .then_some(from + d.len())
}

/// A small or full-width at-sign at `ms..me`: the local part before it
/// (ASCII local-part bytes, up to [`LOCAL_REACH`]) and the domain after.
fn wide_at(text: &[u8], ms: usize, me: usize, work: &Work) -> Option<(usize, usize)> {
    let back = text[ms.saturating_sub(LOCAL_REACH)..ms]
        .iter()
        .rev()
        .take_while(|&&b| local_byte(b))
        .count();
    work.charge(back);
    let start = ms - back;
    let start = start + text[start..ms].iter().take_while(|&&b| b == b'.').count();
    if start >= ms {
        return None;
    }
    Some((start, domain_end(text, me, work)?))
}

/// `"@` at `ms`: a quoted local part (its opening quote on the same line,
/// within [`LOCAL_REACH`] bytes, no quote or backslash inside, not
/// empty) and a domain after the `@`. The span holds the quotes.
fn quoted_local(text: &[u8], ms: usize, work: &Work) -> Option<(usize, usize)> {
    let before = &text[ms.saturating_sub(LOCAL_REACH)..ms];
    work.charge(before.len());
    let open = memchr::memrchr3(b'"', b'\n', b'\\', before)?;
    if before[open] != b'"' || open + 1 >= before.len() {
        return None;
    }
    let local = &before[open + 1..];
    if !local.iter().all(|&b| (0x20..0x7F).contains(&b)) || local.trim_ascii().is_empty() {
        return None;
    }
    // The quote opens a local part, not a string that ends here
    // (`"key"@…` right after a word is a string's end).
    let start = ms - before.len() + open;
    if start > 0 && text[start - 1].is_ascii_alphanumeric() {
        return None;
    }
    Some((start, domain_end(text, ms + 2, work)?))
}

/// An encoded at-sign at `ms..me` (`\u0040`, `&#64;`, `&#x40;`,
/// `&commat;`, `@@`): the address is the local part before it
/// and the domain after, written as they are, the encoded at-sign
/// between them redacted with them. The local part is read as the
/// dot-atom most addresses use (letters, digits, `. _ + -`, at most
/// [`LOCAL_REACH`] bytes): the bytes around an encoded address are a
/// URL's or a markup's, and `/` or `{` before it is theirs. Cost: a local
/// part with other atext (`o'brien&#64;…`) is taken from after that
/// byte; a word, an encoded at-sign and a host name (`files&#64;cdn.net`)
/// go as an address.
fn encoded_at(text: &[u8], ms: usize, me: usize, work: &Work) -> Option<(usize, usize)> {
    let back = text[ms.saturating_sub(LOCAL_REACH)..ms]
        .iter()
        .rev()
        .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'+' | b'-'))
        .count();
    work.charge(back);
    let start = ms - back;
    let start = start + text[start..ms].iter().take_while(|&&b| b == b'.').count();
    if start >= ms || !text[start..ms].iter().any(u8::is_ascii_alphanumeric) {
        return None;
    }
    Some((start, domain_end(text, me, work)?))
}

/// A URL in a JSON string, its slashes escaped (`scheme:\/\/user:pw@host`),
/// `me` after the escaped slashes: the password of its user information,
/// as the `url_credentials` shape takes it from `scheme://user:pw@host`.
/// The user is a run of bytes a user name holds (no `:`, `@`, `/`, `\`,
/// quote or blank), then `:`, the password (up to [`ARG_REACH`] bytes,
/// none of `@`, `/`, `\`, a quote or a blank), `@` and a host's first
/// byte. Cost: none beyond the shape's (the same grammar, unescaped).
fn escaped_url_password(text: &[u8], me: usize, work: &Work) -> Option<(usize, usize)> {
    let to = text.len().min(me.saturating_add(2 * ARG_REACH));
    let window = &text[me..to];
    let plain = |b: u8| b > b' ' && b < 0x7F && !matches!(b, b'@' | b'/' | b'\\' | b'"' | b'\'');
    let user = window
        .iter()
        .take_while(|&&b| plain(b) && b != b':')
        .count();
    if user == 0 || window.get(user) != Some(&b':') {
        work.charge(user);
        return None;
    }
    let pw = window[user + 1..]
        .iter()
        .take(ARG_REACH + 1)
        .take_while(|&&b| plain(b))
        .count();
    work.charge(user + 1 + pw);
    let at = user + 1 + pw;
    let host = window
        .get(at + 1)
        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'[');
    (pw > 0 && pw <= ARG_REACH && window.get(at) == Some(&b'@') && host)
        .then_some((me + user + 1, me + at))
}

/// The most base64 a DER key's run is read for: a two-byte DER length
/// (64 KiB) written in base64.
const DER_REACH: usize = 4 * (4 + 0xFFFF) / 3 + 4;

/// Base64 of a private key in DER, bare (issue 36, nineteenth round: a
/// PKCS#12 bundle as a CI variable, `CM_CERTIFICATE: MIIKYQIBAz…`): the
/// run at `ms` decodes to a SEQUENCE whose first element is a version
/// INTEGER of one byte (0, 1 or 3) followed by a SEQUENCE (PKCS#8's
/// algorithm, PKCS#12's content), an INTEGER (PKCS#1's modulus) or an
/// OCTET STRING (SEC1's key), and the run is that SEQUENCE whole (its
/// declared length, in base64, is the run's). That is the structure of
/// every private key container (PKCS#1, PKCS#8, SEC1, PKCS#12); a
/// certificate, a public key, a CSR or a signature starts with a
/// SEQUENCE or an OID instead of a version. Only the first 16 characters
/// are decoded; the run is read to its declared length at most
/// ([`DER_REACH`]), charged, and once. Cost: a DER structure of another
/// kind that starts with a one-byte version and a SEQUENCE (a PKCS#7
/// `EncryptedData`, version 0) goes as a key; a key wrapped over lines
/// is not read here.
fn der_private_key(text: &[u8], ms: usize, work: &Work) -> (Option<(usize, usize)>, usize) {
    let head = &text[ms..text.len().min(ms + 16)];
    if head.len() < 16
        || !head
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/'))
    {
        return (None, ms + 1);
    }
    work.charge(16);
    let raw = decode(head);
    let (len, hdr) = match *raw.as_slice() {
        [0x30, n @ 0..=0x7F, ..] => (usize::from(n), 2),
        [0x30, 0x81, n, ..] => (usize::from(n), 3),
        [0x30, 0x82, a, b, ..] => ((usize::from(a) << 8) | usize::from(b), 4),
        _ => return (None, ms + 1),
    };
    let versioned = matches!(
        raw.get(hdr..hdr + 4),
        Some([0x02, 0x01, 0 | 1 | 3, 0x30 | 0x02 | 0x04])
    );
    let total = hdr + len;
    if !versioned || total < 48 {
        return (None, ms + 1);
    }
    let want = total.div_ceil(3) * 4;
    let to = text.len().min(ms + want.min(DER_REACH) + 1);
    let n = text[ms..to]
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/'))
        .count();
    let pad = text[ms + n..]
        .iter()
        .take(2)
        .take_while(|&&b| b == b'=')
        .count();
    work.charge(n);
    let end = ms + n + pad;
    let whole = n + pad == want && !text.get(end).is_some_and(|&b| b64(b) || b == b'=');
    (whole.then_some((ms, end)), end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kind no detector takes is not looked for: the base64 DER heads,
    /// the encoded at-signs and the escaped URL are read (charged) only
    /// for their own kind.
    #[test]
    fn only_the_wanted_kinds_are_read() {
        let text = "MIIKYQIBAzCCCicG user\\u0040example.org https:\\/\\/u:p@example.org ".repeat(4);
        let steps = |wanted: &dyn Fn(Found) -> bool| {
            let work = Work::unlimited();
            find(text.as_bytes(), &work, wanted, |_, _, _| {});
            work.steps()
        };
        assert_eq!(steps(&|_| false), 0);
        for kind in [Found::PrivateKey, Found::Email, Found::UrlCredentials] {
            assert!(steps(&|k| k == kind) > 0, "{kind:?}");
        }
    }
}
