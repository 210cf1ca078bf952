//! One character written as an escape of its container, decoded: the one
//! reader behind the at-sign's escapes (`carriers.rs`) and the escaped
//! gaps between a number's groups (`escaped_gaps.rs`), so both know the
//! same escape syntaxes (issue 36, twentieth round: by the escape's
//! class, not by one language's spelling).

/// The character escapes named in HTML that the passes ask for.
const NAMED: &[(&[u8], u32)] = &[
    (b"&commat;", 0x40),
    (b"&nbsp;", 0xA0),
    (b"&thinsp;", 0x2009),
    (b"&ensp;", 0x2002),
    (b"&emsp;", 0x2003),
    (b"&ndash;", 0x2013),
    (b"&minus;", 0x2212),
    (b"&hyphen;", 0x2010),
];

/// The escape of one character that starts `s`, as its length and code
/// point, read as the first of its readings whose code point `want`
/// takes: a backslash escape in hex (`\u0040`, `\u{40}`, `\U00000040`,
/// `\x40`, `\x{40}`; CSS's `\40`, two hex digits and one optional blank
/// after), in octal (`\100`, then `\0100`: C, Perl, Python); an HTML
/// character reference in decimal or hex with any leading zeros
/// (`&#64;`, `&#0064;`, `&#x40;`, `&#X0040;`) or by name ([`NAMED`]).
/// At most 12 bytes are read.
pub(super) fn escape_of(s: &[u8], want: impl Fn(u32) -> bool) -> Option<(usize, u32)> {
    // Up to `max + 1` digits from `from` (a longer run fails the reading).
    let run = |from: usize, max: usize, hex: bool| {
        s.get(from..)
            .unwrap_or_default()
            .iter()
            .take(max + 1)
            .take_while(|b| {
                if hex {
                    b.is_ascii_hexdigit()
                } else {
                    b.is_ascii_digit()
                }
            })
            .count()
    };
    let value = |from: usize, n: usize, radix: u32| {
        std::str::from_utf8(s.get(from..from + n)?)
            .ok()
            .and_then(|d| u32::from_str_radix(d, radix).ok())
    };
    // `n` digits from `from` closed by `close`: the escape's length.
    let closed = |from: usize, n: usize, close: u8, radix: u32| {
        if n == 0 || s.get(from + n) != Some(&close) {
            return None;
        }
        value(from, n, radix).map(|c| (from + n + 1, c))
    };
    let readings: [Option<(usize, u32)>; 3] = match *s {
        [b'\\', b'u' | b'x', b'{', ..] => [closed(3, run(3, 8, true), b'}', 16), None, None],
        [b'\\', b'u', ..] if run(2, 4, true) >= 4 => [value(2, 4, 16).map(|c| (6, c)), None, None],
        [b'\\', b'U', ..] if run(2, 8, true) >= 8 => [value(2, 8, 16).map(|c| (10, c)), None, None],
        [b'\\', b'x', ..] if run(2, 2, true) >= 2 => [value(2, 2, 16).map(|c| (4, c)), None, None],
        [b'\\', d @ b'0'..=b'7', ..] => [
            value(1, 3, 8).map(|c| (4, c)),
            if d == b'0' {
                value(2, 3, 8).map(|c| (5, c))
            } else {
                None
            },
            if run(1, 6, true) == 2 {
                value(1, 2, 16)
                    .map(|c| (3 + usize::from(matches!(s.get(3), Some(b' ' | b'\t'))), c))
            } else {
                None
            },
        ],
        [b'&', b'#', b'x' | b'X', ..] => [closed(3, run(3, 8, true), b';', 16), None, None],
        [b'&', b'#', ..] => [closed(2, run(2, 8, false), b';', 10), None, None],
        [b'&', ..] => [
            NAMED
                .iter()
                .find(|(name, _)| s.starts_with(name))
                .map(|&(name, c)| (name.len(), c)),
            None,
            None,
        ],
        _ => return None,
    };
    readings.into_iter().flatten().find(|&(_, c)| want(c))
}
