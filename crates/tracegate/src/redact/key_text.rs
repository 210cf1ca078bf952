//! Private keys written in other byte encodings than PEM's base64 (issue
//! 36, twentieth round), each known by the structure its bytes decode
//! to, not by one language's or tool's syntax:
//!
//! - **A DER key as a list of byte literals** (`0x30, 0x77, 0x02, 0x01,
//!   …` in a C, Go, Rust or Java array): the literals decode to a SEQUENCE
//!   whose first element is a one-byte version followed by a SEQUENCE,
//!   INTEGER or OCTET STRING (the test `carriers::der_private_key` makes
//!   of base64 DER), and the list holds the SEQUENCE whole by its
//!   declared length.
//! - **A signify or minisign secret key** (base64): it decodes to the
//!   signature algorithm `Ed`, then its key-derivation algorithm (`BK`,
//!   bcrypt: signify; `Sc`, scrypt: minisign), and has that format's
//!   length (104 or 158 bytes). Their public keys and signatures carry no
//!   KDF and have other lengths.
//! - **A bech32 secret key** (`nsec1…`, Nostr): a bech32 string whose
//!   human-readable part ends in `sec`, holding 32 bytes, with a valid
//!   checksum.
//!
//! **Cost** (what this may over-take or miss): a DER private key's
//! structure written as a byte list that is no key (a PKCS#7
//! `EncryptedData`, version 0 and a SEQUENCE) goes, as its base64 does;
//! a byte list of decimal literals (`{48, -126, …}`) or a hex dump
//! without `0x` is not read, nor a key cut short of its length.
//!
//! Cost in time: three substring searches (`0x30`, `RWR`, `sec1`) over
//! every text when the `private_key` detector is on (none when it is
//! off); per hit, a bounded window read and charged.

use std::sync::OnceLock;

use memchr::memmem::Finder;

use super::budget::Work;

/// The most byte literals a DER list is read for (a two-byte DER
/// length), and the most bytes between two of them.
const LIST_REACH: usize = 4 + 0xFFFF;
const SEP_REACH: usize = 16;
/// The longest base64 run a signify or minisign key is read for.
const SIGNIFY_REACH: usize = 240;

/// Every private key in `text` found here, as `(start, end)`.
pub(crate) fn find(text: &[u8], work: &Work, emit: &mut impl FnMut(usize, usize)) {
    // The three searchers, built once (a searcher built per text cost
    // more than its search on short texts).
    static FINDERS: OnceLock<[Finder<'static>; 3]> = OnceLock::new();
    let [der, rwr, sec] = FINDERS.get_or_init(|| {
        [
            Finder::new(b"0x30"),
            Finder::new(b"RWR"),
            Finder::new(b"sec1"),
        ]
    });
    let mut done = 0;
    for at in der.find_iter(text) {
        if at < done || (at > 0 && text[at - 1].is_ascii_alphanumeric()) {
            continue;
        }
        // SECURITY: the caller fails closed on a spent budget.
        work.charge(16);
        let (found, end) = der_list(text, at, work);
        done = end;
        if work.spent() {
            return;
        }
        if let Some((s, e)) = found {
            emit(s, e);
        }
    }
    for at in rwr.find_iter(text) {
        if at > 0 && b64(text[at - 1]) {
            continue;
        }
        work.charge(16);
        if work.spent() {
            return;
        }
        if let Some((s, e)) = signify(text, at, work) {
            emit(s, e);
        }
    }
    for at in sec.find_iter(text) {
        work.charge(16);
        if work.spent() {
            return;
        }
        if let Some((s, e)) = bech32_secret(text, at) {
            emit(s, e);
        }
    }
}

/// One byte literal `0xHH` (one or two hex digits) at `i`: its value and
/// where it ends.
fn literal(text: &[u8], i: usize) -> Option<(u8, usize)> {
    let t = text.get(i..)?;
    if !(t.starts_with(b"0x") || t.starts_with(b"0X")) {
        return None;
    }
    let n = t[2..]
        .iter()
        .take(3)
        .take_while(|b| b.is_ascii_hexdigit())
        .count();
    if !(1..=2).contains(&n) || t.get(2 + n).is_some_and(u8::is_ascii_alphanumeric) {
        return None;
    }
    let v = t[2..2 + n].iter().fold(0u8, |v, &b| (v << 4) | hex_val(b));
    Some((v, i + 2 + n))
}

/// A hex digit's value (`b` must be one; the window pass's percent
/// escapes read theirs here too).
pub(super) fn hex_val(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        _ => b.wrapping_sub(b'A').wrapping_add(10) & 0x0F,
    }
}

/// The separator after a literal: a `,` among blanks and line breaks (at
/// most [`SEP_REACH`] bytes); where the next literal starts.
fn separator(text: &[u8], i: usize) -> Option<usize> {
    let t = text.get(i..)?;
    let n = t
        .iter()
        .take(SEP_REACH)
        .take_while(|b| b.is_ascii_whitespace() || **b == b',')
        .count();
    (n > 0 && t[..n].iter().filter(|&&b| b == b',').count() == 1).then_some(i + n)
}

/// A list of byte literals at `at` that is a DER private key, whole by
/// its declared length; and where the read ended (a later hit before it
/// is skipped).
fn der_list(text: &[u8], at: usize, work: &Work) -> (Option<(usize, usize)>, usize) {
    let mut head = [0u8; 8];
    let mut i = at;
    let mut end = at;
    for slot in &mut head {
        let Some((v, e)) = literal(text, i) else {
            return (None, at + 1);
        };
        *slot = v;
        end = e;
        match separator(text, e) {
            Some(next) => i = next,
            None => return (None, at + 1),
        }
    }
    work.charge(end - at);
    let (len, hdr) = match head {
        [0x30, n @ 0..=0x7F, ..] => (usize::from(n), 2),
        [0x30, 0x81, n, ..] => (usize::from(n), 3),
        [0x30, 0x82, a, b, ..] => ((usize::from(a) << 8) | usize::from(b), 4),
        _ => return (None, at + 1),
    };
    let versioned = matches!(
        head.get(hdr..hdr + 4),
        Some([0x02, 0x01, 0 | 1 | 3, 0x30 | 0x02 | 0x04])
    );
    let total = hdr + len;
    if !versioned || !(48..=LIST_REACH).contains(&total) {
        return (None, at + 1);
    }
    // The literals after the eight read: up to the declared length.
    let mut count = 8;
    let from = i;
    while count < total {
        let Some((_, e)) = literal(text, i) else {
            break;
        };
        end = e;
        count += 1;
        if count == total {
            break;
        }
        match separator(text, e) {
            Some(next) => i = next,
            None => break,
        }
    }
    work.charge(end.saturating_sub(from));
    ((count == total).then_some((at, end)), end)
}

fn b64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/')
}

/// A signify (`Ed`, `BK`, 104 bytes) or minisign (`Ed`, `Sc`, 158 bytes)
/// secret key in base64 at `at`, its `=` padding included.
fn signify(text: &[u8], at: usize, work: &Work) -> Option<(usize, usize)> {
    use base64::Engine as _;
    let to = text.len().min(at + SIGNIFY_REACH + 1);
    let n = text[at..to].iter().take_while(|&&b| b64(b)).count();
    work.charge(n);
    let pad = text[at + n..]
        .iter()
        .take(2)
        .take_while(|&&b| b == b'=')
        .count();
    let end = at + n + pad;
    if !(8..=SIGNIFY_REACH).contains(&n) || text.get(end).is_some_and(|&b| b64(b) || b == b'=') {
        return None;
    }
    let head = base64::engine::general_purpose::STANDARD
        .decode(&text[at..at + 8])
        .ok()?;
    let bytes = (n * 6) / 8;
    let ok = match head.get(..4)? {
        b"EdBK" => bytes == 104,
        b"EdSc" => bytes == 158,
        _ => false,
    };
    ok.then_some((at, end))
}

/// The bech32 alphabet's value of `b`, lowercase.
fn bech32_val(b: u8) -> Option<u8> {
    const CHARSET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    CHARSET
        .iter()
        .position(|&c| c == b)
        .and_then(|p| u8::try_from(p).ok())
}

/// A bech32 string whose human-readable part ends in `sec` (`nsec`), the
/// `1` at `at + 3`: 52 data characters (32 bytes) and 6 of checksum, the
/// checksum valid (BIP-173).
fn bech32_secret(text: &[u8], at: usize) -> Option<(usize, usize)> {
    // The human-readable part: lowercase letters before `sec`.
    let hs = at
        - text[..at]
            .iter()
            .rev()
            .take(8)
            .take_while(|b| b.is_ascii_lowercase())
            .count();
    if hs > 0 && text[hs - 1].is_ascii_alphanumeric() {
        return None;
    }
    let hrp = &text[hs..at + 3];
    let ds = at + 4;
    let data = text.get(ds..ds + 58)?;
    if text.get(ds + 58).is_some_and(u8::is_ascii_alphanumeric) {
        return None;
    }
    let mut vals = [0u8; 58];
    for (v, &b) in vals.iter_mut().zip(data) {
        *v = bech32_val(b)?;
    }
    let mut chk: u32 = 1;
    let mut step = |v: u8| {
        const GEN: [u32; 5] = [
            0x3b6a_57b2,
            0x2650_8e6d,
            0x1ea1_19fa,
            0x3d42_33dd,
            0x2a14_62b3,
        ];
        let top = chk >> 25;
        chk = ((chk & 0x01ff_ffff) << 5) ^ u32::from(v);
        for (k, g) in GEN.iter().enumerate() {
            if (top >> k) & 1 == 1 {
                chk ^= g;
            }
        }
    };
    for &b in hrp {
        step(b >> 5);
    }
    step(0);
    for &b in hrp {
        step(b & 31);
    }
    for &v in &vals {
        step(v);
    }
    (chk == 1).then_some((hs, ds + 58))
}
