//! Values whose groups are set apart by an escape of their container
//! (issue 36, twentieth round): `NL78\ NBZK\ 1540…` in groff (an
//! unbreakable space), `536\u002d22\u002d8741` in a JSON or Java string,
//! `4539&#45;1488…` in HTML, `+41~44~…` in LaTeX. A number written with
//! escaped gaps is still the number: the shapes read a gap as the
//! character it is, so this pass finds an escape that stands for a gap
//! between two letters or digits, writes a window around it with each
//! such escape replaced by the gap it stands for, and hands the window to
//! the regex pass again ([`windows`]); a span found there that covers a
//! replaced escape is mapped back to the original bytes.
//!
//! Which escapes: by the class of escape, not one language's: a
//! backslash escape whose value is a space, a dash, a dot, a slash or a
//! Unicode space or dash (`\u002d`, `\u{20}`, `\x2d`, octal `\040`);
//! an HTML character reference to one (`&#45;`, `&#x2D;`, `&#160;`,
//! `&nbsp;`, `&thinsp;`, `&ndash;`, `&minus;`); the typesetters' own
//! spaces and dashes (groff `\ `, `\~`, `\-`; LaTeX `\,`, `\;`, `\:`
//! and `~`). Cost in precision: none beyond the shapes' own (the window
//! is judged as a text with plain gaps is).
//!
//! Cost in time: one byte search for `\`, `&` and `~` over every text;
//! per qualifying escape (a letter or digit either side), a window of at
//! most [`BEFORE`] + [`AFTER`] bytes copied and scanned again, its bytes
//! charged to the work budget (the regex pass charges its own); an escape
//! inside the last window's reach starts no new one, so a text of
//! nothing but escaped gaps is rescanned a bounded number of times.

use super::budget::Work;
use super::validate::WIDE_GAPS;

/// How far before an escape its window reaches (a context word or label
/// on its line: the checks read up to 80 bytes before a value).
const BEFORE: usize = 96;
/// How far after an escape its window reaches (a value of 34 characters
/// with its gaps escaped in six bytes each, and the text after it).
const AFTER: usize = 160;
/// An escape less than this far past the last window's escape starts no
/// new one: it is inside that window, and a value it starts ends before
/// the window does (a value past this point has an escape past it too,
/// which opens the next window). Each byte is rescanned at most twice.
const STRIDE: usize = 128;

/// The gap the escape at the start of `s` stands for, and the escape's
/// length.
pub(super) fn gap_escape(s: &[u8]) -> Option<(usize, u8)> {
    // A code point's gap: the ASCII ones as themselves, a Unicode space
    // or dash as a space.
    let gap_of = |cp: u32| match cp {
        0x20 | 0x2D | 0x2E | 0x2F => u8::try_from(cp).ok(),
        _ => WIDE_GAPS
            .iter()
            .any(|&(lo, hi)| (lo..=hi).contains(&cp))
            .then_some(b' '),
    };
    let hex = |from: usize, n: usize| {
        let d = s.get(from..from + n)?;
        if !d.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        u32::from_str_radix(std::str::from_utf8(d).ok()?, 16).ok()
    };
    let digits_to = |from: usize, end: u8, max: usize, hexd: bool| {
        let n = s
            .get(from..)?
            .iter()
            .take(max + 1)
            .take_while(|b| {
                if hexd {
                    b.is_ascii_hexdigit()
                } else {
                    b.is_ascii_digit()
                }
            })
            .count();
        if n == 0 || n > max || s.get(from + n) != Some(&end) {
            return None;
        }
        let v = u32::from_str_radix(
            std::str::from_utf8(&s[from..from + n]).ok()?,
            if hexd { 16 } else { 10 },
        )
        .ok()?;
        Some((n + from + 1, v))
    };
    match *s {
        [b'\\', b' ' | b'~', ..] | [b'\\', b',' | b';' | b':', ..] => Some((2, b' ')),
        [b'\\', b'-', ..] => Some((2, b'-')),
        [b'~', ..] => Some((1, b' ')),
        [b'\\', b'u' | b'x', b'{', ..] => {
            let (len, cp) = digits_to(3, b'}', 6, true)?;
            gap_of(cp).map(|g| (len, g))
        }
        [b'\\', b'u', ..] => gap_of(hex(2, 4)?).map(|g| (6, g)),
        [b'\\', b'x', ..] => gap_of(hex(2, 2)?).map(|g| (4, g)),
        [b'\\', b'0'..=b'3', b'0'..=b'7', b'0'..=b'7', ..] => {
            let v =
                u32::from(s[1] - b'0') * 64 + u32::from(s[2] - b'0') * 8 + u32::from(s[3] - b'0');
            gap_of(v).map(|g| (4, g))
        }
        [b'&', b'#', b'x' | b'X', ..] => {
            let (len, cp) = digits_to(3, b';', 6, true)?;
            gap_of(cp).map(|g| (len, g))
        }
        [b'&', b'#', ..] => {
            let (len, cp) = digits_to(2, b';', 7, false)?;
            gap_of(cp).map(|g| (len, g))
        }
        [b'&', ..] => [
            (&b"&nbsp;"[..], b' '),
            (b"&thinsp;", b' '),
            (b"&ensp;", b' '),
            (b"&emsp;", b' '),
            (b"&ndash;", b'-'),
            (b"&minus;", b'-'),
            (b"&hyphen;", b'-'),
        ]
        .into_iter()
        .find(|(name, _)| s.starts_with(name))
        .map(|(name, g)| (name.len(), g)),
        _ => None,
    }
}

/// The start of the character that holds byte `i` of `text`.
fn char_start(text: &[u8], mut i: usize) -> usize {
    while i > 0 && i < text.len() && (text[i] & 0xC0) == 0x80 {
        i -= 1;
    }
    i
}

/// A window of `text` with its escaped gaps replaced, and the way back.
#[derive(Default)]
pub(super) struct Window {
    /// The window's bytes, each escaped gap written as its gap.
    pub(super) copy: Vec<u8>,
    /// Per byte of `copy` and one past its end: the offset in `text` it
    /// came from.
    map: Vec<usize>,
    /// The offsets in `copy` of the gaps written for escapes.
    replaced: Vec<usize>,
}

impl Window {
    /// The original span of `start..end` in the copy, when it covers a
    /// replaced escape (what the plain scan could not see).
    pub(super) fn back(&self, start: usize, end: usize) -> Option<(usize, usize)> {
        if !self.replaced.iter().any(|&k| (start..end).contains(&k)) {
            return None;
        }
        Some((*self.map.get(start)?, *self.map.get(end)?))
    }
}

/// Calls `scan` with each window of `text` around escaped gaps between
/// letters or digits, the escapes replaced.
pub(super) fn windows(text: &[u8], work: &Work, mut scan: impl FnMut(&Window)) {
    let mut w = Window::default();
    let mut last: Option<usize> = None;
    for at in memchr::memchr3_iter(b'\\', b'&', b'~', text) {
        if last.is_some_and(|l| at < l + STRIDE) {
            continue;
        }
        let Some((len, _)) = gap_escape(&text[at..]) else {
            continue;
        };
        let glued = |i: Option<&u8>| i.is_some_and(u8::is_ascii_alphanumeric);
        if !(at > 0 && glued(text.get(at - 1)) && glued(text.get(at + len))) {
            continue;
        }
        last = Some(at);
        let from = char_start(text, at.saturating_sub(BEFORE));
        let to = char_start(text, text.len().min(at + AFTER));
        let to = if to < at + len {
            text.len().min(at + len)
        } else {
            to
        };
        // SECURITY: the caller fails closed on a spent budget.
        work.charge(to - from);
        if work.spent() {
            return;
        }
        w.copy.clear();
        w.map.clear();
        w.replaced.clear();
        let mut i = from;
        while i < to {
            match gap_escape(&text[i..to]) {
                Some((n, g)) if i > from && glued(text.get(i - 1)) && glued(text.get(i + n)) => {
                    w.replaced.push(w.copy.len());
                    w.copy.push(g);
                    w.map.push(i);
                    i += n;
                }
                _ => {
                    w.copy.push(text[i]);
                    w.map.push(i);
                    i += 1;
                }
            }
        }
        w.map.push(to);
        scan(&w);
        if work.spent() {
            return;
        }
    }
}
