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
//! Defanging is such an escape too (issue 36, twenty-first round): a dot
//! or colon in brackets, parentheses or braces, or the word `dot` in
//! them, between two letters or digits (`185[.]31[.]126[.]110`,
//! `evil(dot)example(dot)org`), and a regular expression's escaped dot
//! (`^172\.27\.0\.1$`), are the dot: the window is judged as the plain
//! address is (the IPv4 check's look-alikes and all).
//!
//! So is a form body's encoding (`application/x-www-form-urlencoded`):
//! `+` for a space before a digit in a form value (`ssn=553+53+4231`:
//! an `=` before it in the same value, [`form_value`]) and a percent
//! escape of a gap (`%20`, `%2D`). Cost in precision: a sum written without
//! spaces (`12+345+678`) is read as a number with gaps, held to the
//! number's check as any is.
//!
//! Cost in time: one byte search for `\`, `&` and `~` over every text,
//! one for `[`, `(` and `{` and one for `+` and `%` (a hit of these is
//! looked at only after a letter or digit);
//! per qualifying escape (a letter or digit either side), a window of at
//! most [`BEFORE`] + [`AFTER`] bytes copied and scanned again, its bytes
//! charged to the work budget (the regex pass charges its own); an escape
//! inside the last window's reach starts no new one, so a text of
//! nothing but escaped gaps is rescanned a bounded number of times.

use std::cell::Cell;

use super::budget::Work;
use super::escapes::escape_of;
use super::key_text::hex_val;
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
        // A regular expression's (and Markdown's) escaped dot: `\.`
        // between two letters or digits is the dot (`^172\.27\.0\.1$`;
        // issue 36, twenty-first round).
        [b'\\', b'.', ..] => Some((2, b'.')),
        [b'~', ..] => Some((1, b' ')),
        // A defanged separator (issue 36, twenty-first round): a dot or a
        // colon in brackets, parentheses or braces (`[.]`, `(.)`, `{.}`,
        // `[:]`), or the word `dot` in them (`[dot]`, any case), as
        // threat reports write an address that must not be a link.
        [o @ (b'[' | b'(' | b'{'), ..] => defanged(s, o),
        // A form body's escapes (`application/x-www-form-urlencoded`;
        // issue 36, twenty-first round): `+` for a space before a digit
        // (`ssn=553+53+4231`), and a percent escape of a gap (`%20`,
        // `%2D`, `%2E`, `%2F`, `%C2%A0` is no one byte and is left).
        [b'+', d, ..] if d.is_ascii_digit() => Some((1, b' ')),
        [b'%', h, l, ..] if h.is_ascii_hexdigit() && l.is_ascii_hexdigit() => {
            let v = (hex_val(h) << 4) | hex_val(l);
            matches!(v, b' ' | b'-' | b'.' | b'/').then_some((3, v))
        }
        _ => {
            let (n, cp) = escape_of(s, |cp| gap_of(cp).is_some())?;
            gap_of(cp).map(|g| (n, g))
        }
    }
}

/// How far back from a `+` its form value's `=` is looked for.
const FORM_REACH: usize = 96;

/// Whether the `+` at `at` stands in a form body's value: an `=` within
/// [`FORM_REACH`] bytes before it with only a value's bytes (letters,
/// digits, `+`, `%`, `.`, `-`, `_`, `*`) between. A `+` elsewhere (a
/// sign, a sum, an ISO 6709 point `+48.8577+002.2950+035/`) is no
/// space. The bytes read are charged; `memo` holds the last `+` judged
/// and its answer, and a walk that reaches it stops there with that
/// answer (a value of many `+` is read once).
fn form_value(text: &[u8], at: usize, memo: &Cell<(usize, bool)>, work: &Work) -> bool {
    let value_byte =
        |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'%' | b'.' | b'-' | b'_' | b'*');
    let (seen, seen_ok) = memo.get();
    let lo = at.saturating_sub(FORM_REACH);
    let mut i = at;
    let ok = loop {
        if i < at && i == seen {
            break seen_ok;
        }
        if i == lo {
            break false;
        }
        i -= 1;
        if text[i] == b'=' {
            break true;
        }
        if !value_byte(text[i]) {
            break false;
        }
    };
    work.charge(at - i + 1);
    memo.set((at, ok));
    ok
}

/// The defanged separator that starts `s` (its opener `o`): its length
/// and the byte it stands for.
fn defanged(s: &[u8], o: u8) -> Option<(usize, u8)> {
    let c = match o {
        b'[' => b']',
        b'(' => b')',
        _ => b'}',
    };
    match *s {
        [_, g @ (b'.' | b':'), e, ..] if e == c => Some((3, g)),
        [_, d, o2, t, e, ..] if e == c && [d, o2, t].eq_ignore_ascii_case(b"dot") => {
            Some((5, b'.'))
        }
        _ => None,
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
    // The last `+` [`form_value`] judged, and its answer.
    let memo = Cell::new((usize::MAX, false));
    // The escapes' first bytes, and the openers of a defanged separator
    // right after a letter or digit, in order.
    let mut esc = memchr::memchr3_iter(b'\\', b'&', b'~', text).peekable();
    let mut fang = memchr::memchr3_iter(b'[', b'(', b'{', text)
        .filter(|&at| at > 0 && text[at - 1].is_ascii_alphanumeric())
        .peekable();
    // A form's `+` before a digit and its `%` escapes, after a letter or
    // digit.
    let mut form = memchr::memchr2_iter(b'+', b'%', text)
        .filter(|&at| {
            at > 0
                && text[at - 1].is_ascii_alphanumeric()
                && (text[at] == b'%' || form_value(text, at, &memo, work))
        })
        .peekable();
    let triggers = std::iter::from_fn(|| {
        let (a, b, c) = (
            esc.peek().copied(),
            fang.peek().copied(),
            form.peek().copied(),
        );
        let min = [a, b, c].into_iter().flatten().min()?;
        if a == Some(min) {
            esc.next()
        } else if b == Some(min) {
            fang.next()
        } else {
            form.next()
        }
    });
    for at in triggers {
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
                Some((n, g))
                    if i > from
                        && glued(text.get(i - 1))
                        && glued(text.get(i + n))
                        && (text[i] != b'+' || form_value(text, i, &memo, work)) =>
                {
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
