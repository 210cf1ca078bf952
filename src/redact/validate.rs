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

use super::context::Compiled as Context;
use super::detectors::Check;
use std::net::Ipv6Addr;
use std::str::FromStr;

/// Runs `check` on the candidate `text[start..end]`; returns the span to
/// redact, or `None` when the candidate is not what its shape suggests.
/// `ctx` is the detector's keyword-proximity context (`context.rs`), if it
/// has one: shapes that are ambiguous on their own need a confirming word
/// (none confirms when the detector has no context).
pub(crate) fn check(
    check: Check,
    text: &[u8],
    start: usize,
    end: usize,
    ctx: Option<&Context>,
) -> Option<(usize, usize)> {
    let s = text.get(start..end)?;
    let confirmed = || ctx.is_some_and(|c| c.confirms(text, start));
    let vetoed = || ctx.is_some_and(|c| c.vetoes(text, start));
    match check {
        Check::None => Some((start, end)),
        Check::KeyLoose => {
            // `sk-` and the key: random-looking, or named by its context.
            let key = s.get(3..)?;
            let random = key.len() >= 32
                && key.iter().any(u8::is_ascii_digit)
                && key.iter().any(u8::is_ascii_lowercase)
                && key.iter().any(u8::is_ascii_uppercase);
            ((random || confirmed()) && !placeholder(key)).then_some((start, end))
        }
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
            // The value starts after the assignment (the first `:` or `=`:
            // names hold neither) and the blanks and quote after it; it
            // may end in `=` padding (`AccountKey=…==`).
            let assign = s.iter().position(|&b| b == b':' || b == b'=')?;
            let cut = assign
                + 1
                + s[assign + 1..]
                    .iter()
                    .take_while(|&&b| matches!(b, b' ' | b'\t' | b'"' | b'\''))
                    .count();
            let value = s.get(cut..)?;
            (!value.is_empty() && !placeholder(value)).then_some((start + cut, end))
        }
        Check::UrlPassword => {
            // `scheme://user:password@`: between the last `:` and the `@`.
            let at = end.checked_sub(1)?;
            let colon = s.iter().rposition(|&b| b == b':')?;
            let pass = &s[colon + 1..s.len() - 1];
            (!pass.is_empty() && !placeholder(pass) && !pass.starts_with(b"//"))
                .then_some((start + colon + 1, at))
        }
        Check::Luhn => card_span(text, start, end, vetoed).map(|e| (start, e)),
        Check::Iban => longest_valid_prefix(text, start, end, b" ", |e| iban_ok(&text[start..e]))
            .map(|e| (start, e)),
        Check::Ssn => {
            (ssn_ok(s) && !joined_context(text, start, end, b"-.")).then_some((start, end))
        }
        Check::SsnLoose => (ssn_ok(s)
            && !joined_context(text, start, end, b"-.,")
            && !tail_of_a_run(text, start)
            && confirmed())
        .then_some((start, end)),
        Check::Email => email_span(text, start, end),
        Check::Phone => phone_span(text, start, end, |e| phone_ok(text, start, e)),
        Check::PhoneNational => {
            if !confirmed() {
                return None;
            }
            phone_span(text, start, end, |e| national_phone_ok(text, start, e))
        }
        Check::Ipv4 => (ipv4_ok(s)
            && !joined_context(text, start, end, b".")
            && !version_glue(text, start, end)
            && !vetoed())
        .then_some((start, end)),
        Check::Ipv6 => ipv6_ok(text, start, end).map(|e| (start, e)),
    }
}

/// The span of an email candidate, or `None`: its local part trimmed from
/// the left to letters, digits, ASCII local-part punctuation and invisible
/// characters (a quote or dash glued before an address is not part of it);
/// refused when the domain holds any other non-ASCII character, when it is
/// an scp-style remote or an image name ([`email_ok`]).
fn email_span(text: &[u8], start: usize, end: usize) -> Option<(usize, usize)> {
    let s = std::str::from_utf8(text.get(start..end)?).ok()?;
    let at = s.rfind('@')?;
    let (local, domain) = (&s[..at], &s[at + 1..]);
    // SECURITY: trimming keeps every letter of the local part inside the
    // span: only a character that cannot be part of an address ends it.
    let mut from = local
        .char_indices()
        .rfind(|&(_, c)| !email_char(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    // Scripts written without blanks (Chinese, Japanese, Thai) glue the
    // sentence to an address: `請寄到ana@example.com`. A local part with
    // ASCII letters or digits starts after such a run; one of those
    // scripts alone (`用户@例子.广告`) is all local part.
    let rest = &local[from..];
    if rest.bytes().any(|b| b.is_ascii_alphanumeric()) {
        from += rest
            .char_indices()
            .find(|&(_, c)| !unspaced_script(c))
            .map_or(rest.len(), |(i, _)| i);
    }
    // A domain ends at the first character no domain holds (`”` after
    // `…@пример.рф`); what is left must still end in a dot and a label.
    let cut = domain
        .char_indices()
        .find(|&(_, c)| !email_char(c))
        .map_or(domain.len(), |(i, _)| i);
    let kept = &domain[..cut];
    let label_ok = kept
        .rsplit_once('.')
        .is_some_and(|(host, tld)| !host.is_empty() && tld.chars().count() >= 2);
    let end = start + at + 1 + cut;
    if from >= local.len() || !label_ok || !email_ok(text, end) {
        return None;
    }
    Some((start + from, end))
}

/// A letter of a script written without blanks between words: CJK
/// ideographs, kana, Thai, Lao, Khmer, Myanmar.
fn unspaced_script(c: char) -> bool {
    matches!(c,
        '\u{0E00}'..='\u{0EFF}'
        | '\u{1000}'..='\u{109F}'
        | '\u{1780}'..='\u{17FF}'
        | '\u{3040}'..='\u{30FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{2FFFF}')
}

/// A character an address may hold: ASCII local-part bytes, any letter,
/// digit or combining mark, and the invisible characters (zero-width space,
/// joiners, word joiner, BOM, soft hyphen) that a paste may put inside.
fn email_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '%' | '+' | '-');
    }
    c.is_alphanumeric()
        || matches!(
            c,
            '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}' | '\u{0300}'..='\u{036F}'
        )
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
fn card_span(text: &[u8], start: usize, end: usize, vetoed: impl Fn() -> bool) -> Option<usize> {
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
            // Precision: a piece of a longer number printed in
            // the same grouping (a 20-22 digit tracking number, a UUID of
            // digits) is not a card; a shorter prefix would be a piece too.
            let piece = style.map_or(Piece::No, |k| piece_of_a_longer_run(text, start, e, k));
            let ok = match piece {
                Piece::No => true,
                Piece::Maybe => !vetoed(),
                Piece::Yes => false,
            };
            return ok.then_some(e);
        }
    }
    None
}

/// Whether the card candidate `text[start..end]`, printed with separator
/// kind `kind`, is a piece of a longer number printed the same way (a
/// 20-22 digit tracking number grouped in fours, a UUID of digits): after
/// it two more groups, the first of four digits, or a dash and twelve
/// digits; or two groups of four before it. One group before or after
/// (`2024 4111 1111 1111 1111`, `4111 1111 1111 1111 123`) is
/// [`Piece::Maybe`]: a card next to a year or a CVV, unless a shipping word
/// says it is a tracking number.
fn piece_of_a_longer_run(text: &[u8], start: usize, end: usize, kind: u8) -> Piece {
    let sep_at = |i: usize| card_sep(text, i).filter(|&(k, _)| k == kind);
    let digits_from = |i: usize| {
        text.get(i..)
            .map_or(0, |t| t.iter().take_while(|b| b.is_ascii_digit()).count())
    };
    // The start of a group of four digits and the separator before `at`.
    let group_before = |at: usize| {
        (1..=3).find_map(|len| {
            let g = at.checked_sub(len + 4)?;
            (sep_at(at - len) == Some((kind, len))
                && text[g..at - len].iter().all(u8::is_ascii_digit))
            .then_some(g)
        })
    };
    let before = group_before(start);
    let two_before = before.is_some_and(|g| group_before(g).is_some());
    let (one_after, long_after) = match sep_at(end) {
        Some((_, len)) => {
            let g = digits_from(end + len);
            let more = sep_at(end + len + g).is_some_and(|(_, l2)| {
                text.get(end + len + g + l2).is_some_and(u8::is_ascii_digit)
            });
            // Two more groups in fours, or a UUID's last group of twelve.
            (g >= 1, (g == 4 && more) || (kind == b'-' && g == 12))
        }
        None => (false, false),
    };
    if long_after || two_before {
        return Piece::Yes;
    }
    if before.is_some() || one_after {
        Piece::Maybe
    } else {
        Piece::No
    }
}

/// Whether a card candidate is part of a longer number.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Piece {
    No,
    /// A group on one side: a piece of a tracking number
    /// (`9400 4111 1111 1111 1111 90`) or a card next to a number; the
    /// `credit_card` context's `not_words` (`tracking`, `usps`, ...) tell.
    Maybe,
    Yes,
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
    card_span(s, 0, s.len(), || false) == Some(s.len())
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

/// Nine digits `AAA GG SSSS` (any separators) with area 000, 666 and
/// 900-999, group 00 and serial 0000 excluded (never issued).
fn ssn_ok(s: &[u8]) -> bool {
    let mut d = [0u32; 9];
    let mut n = 0;
    for &b in s {
        if b.is_ascii_digit() {
            if n == 9 {
                return false;
            }
            d[n] = u32::from(b - b'0');
            n += 1;
        }
    }
    let num = |r: std::ops::Range<usize>| d[r].iter().fold(0, |a, &x| a * 10 + x);
    let (area, group, serial) = (num(0..3), num(3..5), num(5..9));
    n == 9 && area != 0 && area != 666 && area < 900 && group != 0 && serial != 0
}

/// The longest phone number that starts the candidate and ends at its end
/// or right before one of its blanks: a number followed by a date or
/// another number (`+44 20 7946 0958 24.06.2026`) is walked into by the
/// shape, and the check cuts it back at the blank.
fn phone_span(
    text: &[u8],
    start: usize,
    end: usize,
    ok: impl Fn(usize) -> bool,
) -> Option<(usize, usize)> {
    if ok(end) {
        return Some((start, end));
    }
    (start + 1..end)
        .rev()
        .filter(|&i| text[i] == b' ' && (text[i - 1].is_ascii_digit() || text[i - 1] == b')'))
        .find(|&e| ok(e))
        .map(|e| (start, e))
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

/// A national phone number: 9-12 digits, one separator style between its
/// groups (after a parenthesised area code any), no numeric glue on either
/// side. Dates (`01.02.2024 10`) fail on the count or the mixed style.
fn national_phone_ok(text: &[u8], start: usize, end: usize) -> bool {
    let Some(s) = text.get(start..end) else {
        return false;
    };
    let digits = s.iter().filter(|b| b.is_ascii_digit()).count();
    if !(9..=12).contains(&digits) || joined_context(text, start, end, b"-./") {
        return false;
    }
    // Glued to a word or a `+` before, or the tail of a longer grouped
    // number (`7946 0958 123456`): not a national number on its own.
    if start > 0 && (text[start - 1].is_ascii_alphanumeric() || text[start - 1] == b'+')
        || tail_of_a_run(text, start)
    {
        return false;
    }
    let body = match s.iter().position(|&b| b == b')') {
        Some(close) => &s[close + 1..],
        None => s,
    };
    let mut seps = body
        .split(u8::is_ascii_digit)
        .filter(|g| !g.is_empty())
        .skip(usize::from(s.first() == Some(&b'(')));
    match seps.next() {
        Some(first) => seps.all(|g| g == first),
        None => true,
    }
}

/// The candidate at `start` continues a number before it: a digit and one
/// separator (` `, `.`, `-`, `/`) right before it.
fn tail_of_a_run(text: &[u8], start: usize) -> bool {
    start >= 2
        && matches!(text[start - 1], b' ' | b'.' | b'-' | b'/')
        && text[start - 2].is_ascii_digit()
}

/// A dotted quad glued to a package or file name: `pkg-1.2.3.4`,
/// `1.2.3.4-beta`, `1.2.3.4+build`, `1.2.3.4.tar.gz`: a version.
fn version_glue(text: &[u8], start: usize, end: usize) -> bool {
    let before = start >= 2
        && matches!(text[start - 1], b'-' | b'_')
        && text[start - 2].is_ascii_alphabetic();
    let after = text
        .get(end)
        .is_some_and(|b| matches!(b, b'-' | b'+' | b'.' | b'_'))
        && text.get(end + 1).is_some_and(u8::is_ascii_alphabetic);
    before || after
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
        check(c, s.as_bytes(), 0, s.len(), None).map(|(a, b)| s[a..b].to_string())
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
