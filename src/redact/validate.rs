//! Checks that run on a regex candidate: Luhn, IBAN mod-97, number ranges and
//! the numeric context around a match.
//!
//! A check returns the span to redact, which may be narrower than the regex
//! match: the bearer token without its header, or a shorter prefix of a card
//! or IBAN candidate. The shrink rule: when a long card/IBAN candidate fails,
//! every prefix that ends at one of its own separators (a space or dash, so
//! the right edge still sits on a boundary) is tried, longest first. This is
//! what keeps `4111 1111 1111 1111 2024` (a card followed by a year) from
//! hiding the card. Shorter candidates that *start* later inside a failed one
//! are found by the scanner, which resumes one character after a failed start.

use super::detectors::Check;
use std::net::Ipv6Addr;
use std::str::FromStr;

/// Runs `check` on the candidate `text[start..end]`; returns the span to
/// redact, or `None` when the candidate is not what its shape suggests.
pub(crate) fn check(check: Check, text: &[u8], start: usize, end: usize) -> Option<(usize, usize)> {
    let s = text.get(start..end)?;
    match check {
        Check::None => Some((start, end)),
        Check::Bearer => {
            // The token is everything after the last blank of the header.
            let cut = s.iter().rposition(|&b| b == b' ' || b == b'\t')?;
            (!placeholder(&s[cut + 1..])).then_some((start + cut + 1, end))
        }
        Check::BareBearer => {
            let cut = s.iter().rposition(|&b| b == b' ' || b == b'\t')?;
            let tok = &s[cut + 1..];
            // Mixed case and a digit, as base62/base64 tokens have: a
            // UUID or an order number after the word is an id, not one.
            let looks = tok.len() >= 12
                && tok.iter().any(u8::is_ascii_digit)
                && tok.iter().any(u8::is_ascii_lowercase)
                && tok.iter().any(u8::is_ascii_uppercase)
                && !placeholder(tok);
            looks.then_some((start + cut + 1, end))
        }
        Check::Value => {
            let cut = s
                .iter()
                .rposition(|&b| matches!(b, b' ' | b'\t' | b':' | b'=' | b'"' | b'\''))?;
            (!placeholder(&s[cut + 1..])).then_some((start + cut + 1, end))
        }
        Check::UrlPassword => {
            // `scheme://user:password@`: between the last `:` and the `@`.
            let at = end.checked_sub(1)?;
            let colon = s.iter().rposition(|&b| b == b':')?;
            let pass = &s[colon + 1..s.len() - 1];
            (!pass.is_empty() && !placeholder(pass) && !pass.starts_with(b"//"))
                .then_some((start + colon + 1, at))
        }
        Check::Luhn => card_span(text, start, end).map(|e| (start, e)),
        Check::Iban => longest_valid_prefix(text, start, end, b" ", |e| iban_ok(&text[start..e]))
            .map(|e| (start, e)),
        Check::Ssn => {
            (ssn_ok(s) && !joined_context(text, start, end, b"-.")).then_some((start, end))
        }
        Check::Email => email_ok(text, end).then_some((start, end)),
        Check::Phone => phone_ok(text, start, end).then_some((start, end)),
        Check::Ipv4 => {
            (ipv4_ok(s) && !joined_context(text, start, end, b".")).then_some((start, end))
        }
        Check::Ipv6 => ipv6_ok(text, start, end).map(|e| (start, e)),
    }
}

/// Not an scp-style remote (`git@github.com:org/repo.git`: a `:` and a
/// path right after the domain) and not an image at a pixel density
/// (`logo@2x.png`: a file extension where the top-level domain would be).
fn email_ok(text: &[u8], end: usize) -> bool {
    let scp = text.get(end) == Some(&b':')
        && text
            .get(end + 1)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'~');
    let dot = text[..end].iter().rposition(|&b| b == b'.').unwrap_or(0);
    let tld = text[dot + 1..end].to_ascii_lowercase();
    let image = matches!(
        tld.as_slice(),
        b"png" | b"jpg" | b"jpeg" | b"gif" | b"svg" | b"webp" | b"ico" | b"bmp" | b"avif"
    );
    !scp && !image
}

/// A value that stands for a credential rather than being one:
/// `YOUR_API_KEY`, `<token>`, `xxxx`, `****`, `${TOKEN}`, `...`,
/// `REPLACE_ME`, `changeme`, `example`.
pub(crate) fn placeholder(v: &[u8]) -> bool {
    let Some(&first) = v.first() else {
        return true;
    };
    if v.iter().all(|&b| b == first) || v.windows(3).any(|w| w == b"...") {
        return true;
    }
    let lower: Vec<u8> = v.iter().map(u8::to_ascii_lowercase).collect();
    const WORDS: &[&[u8]] = &[
        b"your_",
        b"your-",
        b"yourapi",
        b"_here",
        b"-here",
        b"replace",
        b"changeme",
        b"example",
        b"placeholder",
        b"xxxx",
        b"****",
        b"dummy",
        b"redacted",
        b"<",
        b"${",
        b"{{",
        b"token_goes",
        b"insert",
    ];
    WORDS
        .iter()
        .any(|w| lower.windows(w.len()).any(|x| x == *w))
}

/// The candidate's end if `ok(end)`, else the longest prefix end just before
/// one of `seps` inside it for which `ok` holds.
fn longest_valid_prefix(
    text: &[u8],
    start: usize,
    end: usize,
    seps: &[u8],
    ok: impl Fn(usize) -> bool,
) -> Option<usize> {
    let s = text.get(start..end)?;
    if ok(end) {
        return Some(end);
    }
    (1..s.len())
        .rev()
        .filter(|&i| seps.contains(&s[i]) && s[i - 1].is_ascii_alphanumeric())
        .map(|i| start + i)
        .find(|&e| ok(e))
}

/// True when the candidate is glued to more digits by one of `seps`
/// (`1.2.3.4.5`, `123-45-6789-0`): part of a longer number, not a match.
fn joined_context(text: &[u8], start: usize, end: usize, seps: &[u8]) -> bool {
    let before = start >= 2 && seps.contains(&text[start - 1]) && text[start - 2].is_ascii_digit();
    let after = text.get(end).is_some_and(|b| seps.contains(b))
        && text.get(end + 1).is_some_and(u8::is_ascii_digit);
    before || after
}

/// The digits of a decimal number (`0.4111111111111111`, `1.5e10`).
fn decimal_context(text: &[u8], start: usize, end: usize) -> bool {
    joined_context(text, start, end, b".,")
}

/// Luhn over the ASCII digits of `s`.
pub(crate) fn luhn(s: &[u8]) -> bool {
    let mut sum = 0u32;
    let mut n = 0usize;
    for &b in s.iter().rev().filter(|b| b.is_ascii_digit()) {
        let mut d = u32::from(b - b'0');
        if n % 2 == 1 {
            d *= 2;
            if d > 9 {
                d -= 9;
            }
        }
        sum += d;
        n += 1;
    }
    n > 0 && sum.is_multiple_of(10)
}

/// The separator that starts at `s[i]`, as `(kind, length)`: the bytes a
/// printed card number puts between its groups (blank, tab, `-`, `.`, `/`,
/// `_`, no-break space, en dash). `kind` tells one style from another.
pub(crate) fn card_sep(s: &[u8], i: usize) -> Option<(u8, usize)> {
    match s.get(i)? {
        b @ (b' ' | b'\t' | b'-' | b'.' | b'/' | b'_') => Some((*b, 1)),
        0xC2 if s.get(i + 1) == Some(&0xA0) => Some((0xA0, 2)),
        0xE2 if s.get(i + 1) == Some(&0x80) && s.get(i + 2) == Some(&0x93) => Some((0x93, 3)),
        _ => None,
    }
}

/// The longest card number that starts the candidate `text[start..end]`
/// and ends at its end or at one of its own separators: its end, or `None`.
///
/// Linear in the candidate: its groups are read once, and only the few
/// prefixes whose grouping is one a card is printed with are checked
/// (13-19 digits written solid; groups of four and a last of one to four;
/// Amex and Diners' 4-6-4 and 4-6-5; one separator style throughout).
/// Each is then held to an issuer prefix (3x but not 31-33, 4, 5, 6,
/// 2221-2720), an issuer length (Visa 13, 16, 19; Amex 15; Diners 14;
/// Mastercard 16; others 16-19) and Luhn. The issuer rules keep the
/// commonest Luhn-by-chance numbers out: epoch milliseconds (`17…`), other
/// ids starting 1, 7, 8, 9 or 0, and digit runs of lengths no network uses.
fn card_span(text: &[u8], start: usize, end: usize) -> Option<usize> {
    let s = text.get(start..end)?;
    // Per group: its digit count and the offset just past it.
    let mut groups: [(usize, usize); 19] = [(0, 0); 19];
    let mut n = 0;
    let mut style = None;
    let mut i = 0;
    while i < s.len() && n < groups.len() {
        let g = s[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if g == 0 {
            break;
        }
        i += g;
        groups[n] = (g, i);
        n += 1;
        match card_sep(s, i) {
            Some((kind, len)) if style.is_none_or(|k| k == kind) => {
                style = Some(kind);
                i += len;
            }
            _ => break,
        }
    }
    let groups = &groups[..n];
    let mut digits = [0u8; 19];
    for k in (1..=groups.len()).rev() {
        let body = &groups[..k];
        let total: usize = body.iter().map(|g| g.0).sum();
        if !(13..=19).contains(&total) {
            continue;
        }
        let lens = || body.iter().map(|g| g.0);
        let printed = k == 1
            || (lens().take(k - 1).all(|g| g == 4) && (1..=4).contains(&body[k - 1].0))
            || matches!(body, [(4, _), (6, _), (4 | 5, _)]);
        if !printed {
            continue;
        }
        let e = start + body[k - 1].1;
        let mut m = 0;
        for &b in &text[start..e] {
            if b.is_ascii_digit() {
                digits[m] = b;
                m += 1;
            }
        }
        if issuer_ok(&digits[..m]) && luhn(&digits[..m]) && !decimal_context(text, start, e) {
            return Some(e);
        }
    }
    None
}

/// An issuer prefix and a length that issuer uses.
fn issuer_ok(d: &[u8]) -> bool {
    let n = d.len();
    let two = u32::from(d[0] - b'0') * 10 + u32::from(d[1] - b'0');
    match d[0] {
        b'4' => matches!(n, 13 | 16 | 19),
        b'3' => match two {
            34 | 37 => n == 15,
            36 | 38 | 39 | 30 => (14..=19).contains(&n),
            35 => (16..=19).contains(&n),
            _ => false,
        },
        b'5' => {
            (51..=55).contains(&two) && n == 16
                || (two == 50 || two >= 56) && (12..=19).contains(&n)
        }
        b'6' => (16..=19).contains(&n),
        b'2' => {
            let p = d[..4]
                .iter()
                .fold(0u32, |a, &x| a * 10 + u32::from(x - b'0'));
            (2221..=2720).contains(&p) && n == 16
        }
        _ => false,
    }
}

/// 13-19 digits, printed grouping, an issuer prefix of a card network, and
/// Luhn (the whole of `s`).
#[cfg(test)]
fn card_ok(s: &[u8]) -> bool {
    card_span(s, 0, s.len()) == Some(s.len())
}

/// ISO 13616: two letters, two check digits, 11-30 more alphanumerics, and
/// mod-97 of the rearranged number equal to 1.
pub(crate) fn iban_ok(s: &[u8]) -> bool {
    let compact: Vec<u8> = s.iter().copied().filter(|&b| b != b' ').collect();
    if !(15..=34).contains(&compact.len()) || s.last() == Some(&b' ') {
        return false;
    }
    let rearranged = compact[4..].iter().chain(&compact[..4]);
    let mut rem = 0u32;
    for &b in rearranged {
        let v = match b {
            b'0'..=b'9' => u32::from(b - b'0'),
            b'A'..=b'Z' => u32::from(b - b'A') + 10,
            _ => return false,
        };
        rem = if v >= 10 {
            (rem * 100 + v) % 97
        } else {
            (rem * 10 + v) % 97
        };
    }
    rem == 1
}

/// `AAA-GG-SSSS` with area 000, 666 and 900-999, group 00 and serial 0000
/// excluded (never issued).
fn ssn_ok(s: &[u8]) -> bool {
    let num = |r: std::ops::Range<usize>| {
        s.get(r).map(|d| {
            d.iter()
                .fold(0u32, |a, &b| a * 10 + u32::from(b.wrapping_sub(b'0')))
        })
    };
    match (num(0..3), num(4..6), num(7..11)) {
        (Some(area), Some(group), Some(serial)) => {
            area != 0 && area != 666 && area < 900 && group != 0 && serial != 0
        }
        _ => false,
    }
}

/// Digit count for international forms, one separator style for national
/// ones, and no numeric glue on either side.
fn phone_ok(text: &[u8], start: usize, end: usize) -> bool {
    let Some(s) = text.get(start..end) else {
        return false;
    };
    let digits = s.iter().filter(|b| b.is_ascii_digit()).count();
    match s.first() {
        Some(b'+') => {
            // `2+12345678` is arithmetic, `+12345678.5` a decimal.
            let glued_before =
                start > 0 && (text[start - 1].is_ascii_alphanumeric() || text[start - 1] == b')');
            (8..=15).contains(&digits) && !glued_before && !decimal_context(text, start, end)
        }
        Some(b'(') => !joined_context(text, start, end, b"-."),
        _ => {
            // `555-123-4567` or `555.123.4567`, never mixed.
            let same_seps = s.get(3) == s.get(7);
            same_seps && !joined_context(text, start, end, b"-.")
        }
    }
}

/// Four dotted octets, each 0-255.
fn ipv4_ok(s: &[u8]) -> bool {
    s.split(|&b| b == b'.').all(|o| {
        !o.is_empty()
            && o.len() <= 3
            && o.iter().fold(0u32, |a, &b| a * 10 + u32::from(b - b'0')) <= 255
    })
}

/// A real IPv6 address (full or `::`-compressed). Compressed forms need two
/// non-empty groups and a digit, which keeps code paths (`std::io`, `A::B`)
/// and the bare `::` out; `::1` is therefore not redacted (it is loopback,
/// not personal). Embedded-IPv4 forms (`::ffff:1.2.3.4`) are left to `ipv4`.
fn ipv6_ok(text: &[u8], start: usize, mut end: usize) -> Option<usize> {
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    if start > 0 && (word(&text[start - 1]) || matches!(text[start - 1], b':' | b'.')) {
        return None;
    }
    // A sentence may put a colon right after an address: `fe80::1: down`.
    if end >= start + 2 && text[end - 1] == b':' && text[end - 2] != b':' {
        end -= 1;
    }
    let s = std::str::from_utf8(text.get(start..end)?).ok()?;
    if text.get(end).is_some_and(word)
        || (text.get(end) == Some(&b'.') && text.get(end + 1).is_some_and(u8::is_ascii_digit))
    {
        return None;
    }
    Ipv6Addr::from_str(s).ok()?;
    if s.contains("::") {
        let groups = s.split(':').filter(|g| !g.is_empty()).count();
        let digit = s.bytes().any(|b| b.is_ascii_digit());
        if groups < 2 || !digit {
            return None;
        }
    }
    Some(end)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn run(c: Check, s: &str) -> Option<String> {
        check(c, s.as_bytes(), 0, s.len()).map(|(a, b)| s[a..b].to_string())
    }

    #[test]
    fn luhn_known_values() {
        assert!(luhn(b"4111111111111111"));
        assert!(luhn(b"79927398713"));
        assert!(!luhn(b"4111111111111112"));
        assert!(!luhn(b""));
    }

    #[test]
    fn card_needs_issuer_prefix_and_length() {
        assert!(card_ok(b"4111 1111 1111 1111"));
        assert!(card_ok(b"378282246310005")); // amex, 15
        assert!(card_ok(b"2223000048400011")); // mastercard 2-series
        assert!(!card_ok(b"1789040231522")); // epoch ms that passes Luhn? prefix 1 anyway
        assert!(!card_ok(b"79927398713")); // Luhn-valid but 11 digits
    }

    #[test]
    fn card_shrinks_to_a_separator_boundary() {
        let s = "4111 1111 1111 1111 2024";
        assert_eq!(run(Check::Luhn, s).as_deref(), Some("4111 1111 1111 1111"));
        assert_eq!(run(Check::Luhn, "4111 1111 1111 1112"), None);
    }

    #[test]
    fn iban_mod97() {
        assert!(iban_ok(b"DE89370400440532013000"));
        assert!(iban_ok(b"GB82 WEST 1234 5698 7654 32"));
        assert!(!iban_ok(b"DE88370400440532013000"));
        assert!(!iban_ok(b"DE89"));
        assert_eq!(
            run(Check::Iban, "DE89 3704 0044 0532 0130 00 AB12").as_deref(),
            Some("DE89 3704 0044 0532 0130 00")
        );
    }

    #[test]
    fn ssn_ranges() {
        assert!(ssn_ok(b"123-45-6789"));
        for bad in [
            "000-45-6789",
            "666-45-6789",
            "912-45-6789",
            "123-00-6789",
            "123-45-0000",
        ] {
            assert!(!ssn_ok(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn ipv6_rules() {
        let ok = |s: &str| ipv6_ok(s.as_bytes(), 0, s.len()).is_some();
        assert!(ok("2001:db8::8a2e:370:7334"));
        assert!(ok("2001:0db8:85a3:0000:0000:8a2e:0370:7334"));
        assert!(ok("fe80::1"));
        assert!(!ok("::"));
        assert!(!ok("::1"));
        assert!(!ok("12:30:45"));
        assert!(!ok("d::"));
        assert!(!ok("be:ef::ca:fe")); // no digit
    }
}
