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
//! Which escapes: by the class of escape, not one language's: any
//! escape of one character ([`escape_of`], the reader the at-sign's
//! escapes use) whose value is a space, a dash, a dot, a slash or a
//! Unicode space or dash (`\u002d`, `\u{20}`, `\x2d`, octal `\040`,
//! `&#45;`, `&#x2D;`, `&nbsp;`, `&ndash;`); the typesetters' own
//! spaces and dashes (groff `\ `, `\~`, `\-`; LaTeX `\,`, `\;`, `\:`
//! and `~`); and the typesetters' escape of the underscore, a character
//! of a word (`\_`: `\email{foh\_audio@…}` is an address; issue 36,
//! twenty-first round). Cost in precision: none
//! beyond the shapes' own (the window is judged as a text with plain gaps
//! is).
//!
//! Cost in time: one byte search for `\`, `&` and `~` over every text;
//! per qualifying escape (a letter or digit either side), a window of at
//! most [`BEFORE`] + [`AFTER`] bytes copied and scanned again, its bytes
//! charged to the work budget (the regex pass charges its own); an escape
//! inside the last window's reach starts no new one, so a text of
//! nothing but escaped gaps is rescanned a bounded number of times.

use super::budget::Work;
use super::escapes::escape_of;
use super::validate::WIDE_GAPS;
use super::wide_digits::char_start;

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
    match *s {
        [b'\\', b' ' | b'~' | b',' | b';' | b':', ..] => Some((2, b' ')),
        [b'\\', b'-', ..] => Some((2, b'-')),
        // A typesetter's escape of the underscore (TeX's and groff's
        // `\_`): the underscore, so `foh\_audio@…` is the address
        // `foh_audio@…` (issue 36, twenty-first round; the other escaped
        // specials, `\&`, `\#`, `\%`, `\$`, are in no value's
        // alphabet the shapes take). Cost in precision: none beyond the
        // shapes' own.
        [b'\\', b'_', ..] => Some((2, b'_')),
        [b'~', ..] => Some((1, b' ')),
        _ => {
            let (n, cp) = escape_of(s, |cp| gap_of(cp).is_some())?;
            gap_of(cp).map(|g| (n, g))
        }
    }
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
