//! Card numbers (and, since the twenty-first round, SSNs) spelled in
//! decimal digits that are not ASCII (issue 36, sixteenth round):
//! full-width `５０６２　２１９０…` in a Japanese form,
//! Arabic-Indic `٤١١١…`. A number spelled in other digits is still the
//! number: the regex shapes read ASCII digits only, so this pass finds a
//! run of digits with at least one non-ASCII digit in it, writes it with
//! ASCII digits into a copy of its neighbourhood (the gaps, and the text
//! around it, kept as they are), and asks the card check
//! ([`validate::check`] with [`Check::Luhn`]: grouping, issuer or card
//! word, Luhn, the look-alikes) of the copy. A number it takes is mapped
//! back to the original bytes.
//!
//! Which digits: every script's (Unicode `Nd`, all 74 blocks past
//! ASCII; issue 36, nineteenth round: a table of the blocks' zeros that a
//! test holds equal to `\p{Nd}`, not a list of the scripts a corpus
//! used). Three byte searches find their lead bytes; a letter is refused
//! on one load from a table of the digits' code points (bits per third
//! byte) built from the zeros at compile time. Cost: none in precision
//! beyond the card and phone checks' own (the copy is judged as an ASCII
//! number is).
//!
//! Cost in time: three vector searches for lead bytes over texts that hold
//! a byte outside ASCII; past a hit, a plain loop over the run of
//! characters of that width (and single ASCII bytes between them, the
//! spaces between words), each refused on one load from a bit table of
//! the digits ([`BMP_DIGITS`]; issue 37, twentieth round: the run loop
//! decoded each letter before, and stopped at every space); per run of
//! 13 or more digits, the copy and the card check, charged to the work
//! budget.

use super::budget::Work;
use super::context::Compiled as Context;
use super::detectors::Check;
use super::validate;

/// How far before a run its copy reaches (a card word or key on its line:
/// `validate::card_named` reads 64 bytes, a key 72).
const BEFORE: usize = 80;
/// How far after a run its copy reaches (`validate::card_fields_after`
/// reads 96 bytes).
const AFTER: usize = 100;
/// The longest run of digits and gaps copied (19 digits of 3 bytes and 18
/// gaps of 3).
const MAX_RUN: usize = 120;

/// The zero of every run of ten decimal digits (Unicode `Nd`) past
/// ASCII, in increasing order (Unicode 16.0, the version the `regex`
/// crate's `\p{Nd}` reads; a test holds the two equal, so a script is
/// never left out by a list: issue 36, nineteenth round). Every `Nd`
/// block is ten consecutive code points from its zero; the
/// mathematical digits (U+1D7CE-U+1D7FF) are five such runs.
const ND_ZEROS: [u32; 75] = [
    0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66, 0xDE6,
    0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50,
    0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10,
    0x104A0, 0x10D30, 0x10D40, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0,
    0x11650, 0x116C0, 0x116D0, 0x116DA, 0x11730, 0x118E0, 0x11950, 0x11BF0, 0x11C50, 0x11D50,
    0x11DA0, 0x11F50, 0x16130, 0x16A60, 0x16AC0, 0x16B50, 0x16D70, 0x1CCF0, 0x1D7CE, 0x1D7D8,
    0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E4F0, 0x1E5F1, 0x1E950, 0x1FBF0,
];

/// Which code points below U+10000 are decimal digits: a bit per code
/// point, 64 to a word (8 KB). A two- or three-byte character is refused
/// on one load and a shift: the word is the code point's bits above its
/// last six, which are the lead byte's and the second byte's payload.
const fn bmp_digits() -> [u64; 1024] {
    let mut bits = [0u64; 1024];
    let mut i = 0;
    while i < ND_ZEROS.len() {
        let mut c = ND_ZEROS[i];
        while c < ND_ZEROS[i] + 10 {
            if c < 0x10000 {
                bits[(c >> 6) as usize] |= 1 << (c & 0x3F);
            }
            c += 1;
        }
        i += 1;
    }
    bits
}
const BMP_DIGITS: [u64; 1024] = bmp_digits();

/// Which 64-code-point rows of the four-byte plane U+10000-U+1FFFF hold a
/// decimal digit: a bit per third byte, for each second byte `90`-`9F`.
const fn rows4() -> [u64; 16] {
    let mut bits = [0u64; 16];
    let mut i = 0;
    while i < ND_ZEROS.len() {
        let mut c = ND_ZEROS[i];
        while c < ND_ZEROS[i] + 10 {
            if c >= 0x10000 && c < 0x20000 {
                bits[((c >> 12) & 0x0F) as usize] |= 1 << ((c >> 6) & 0x3F);
            }
            c += 1;
        }
        i += 1;
    }
    bits
}
const ROWS4: [u64; 16] = rows4();

/// The value of the non-ASCII decimal digit that starts `s`, and its
/// UTF-8 length: any script's decimal digits (Unicode `Nd`, every block:
/// issue 36, nineteenth round; before, fourteen scripts' blocks were
/// listed here, and cards in Vai, Javanese, Osmanya, Adlam or the
/// mathematical digits went). Two-byte digits have the leads `D9`, `DB`
/// and `DF`; three-byte ones `E0`, `E1`, `EA` and `EF`; four-byte ones
/// `F0`.
#[inline]
pub(super) fn wide_digit(s: &[u8]) -> Option<(u8, usize)> {
    let cont = |b: u8| b & 0xC0 == 0x80;
    let (cp, n) = match *s {
        [b0 @ 0xC2..=0xDF, b1, ..] if cont(b1) => {
            ((u32::from(b0 & 0x1F) << 6) | u32::from(b1 & 0x3F), 2)
        }
        // (Not an overlong `E0 80`-`9F`: a two-byte code point.)
        [b0 @ 0xE0..=0xEF, b1, b2, ..] if cont(b1) && cont(b2) && (b0, b1) >= (0xE0, 0xA0) => (
            (u32::from(b0 & 0x0F) << 12) | (u32::from(b1 & 0x3F) << 6) | u32::from(b2 & 0x3F),
            3,
        ),
        [0xF0, b1 @ 0x90..=0x9F, b2, b3, ..]
            if cont(b2) && cont(b3) && ROWS4[usize::from(b1 & 0x0F)] & (1 << (b2 & 0x3F)) != 0 =>
        {
            return digit_of(
                (u32::from(b1 & 0x3F) << 12) | (u32::from(b2 & 0x3F) << 6) | u32::from(b3 & 0x3F),
            )
            .map(|d| (d, 4));
        }
        _ => return None,
    };
    if BMP_DIGITS[(cp >> 6) as usize & 0x3FF] & (1 << (cp & 0x3F)) == 0 {
        return None;
    }
    digit_of(cp).map(|d| (d, n))
}

/// The value of the decimal digit `cp`, from the table of zeros.
#[cold]
fn digit_of(cp: u32) -> Option<u8> {
    let zero = match ND_ZEROS.partition_point(|&z| z <= cp) {
        0 => return None,
        i => ND_ZEROS[i - 1],
    };
    u8::try_from(cp - zero).ok().filter(|&d| d < 10)
}

/// A digit (ASCII or [`wide_digit`]) at the start of `s`: its value and
/// length.
fn digit(s: &[u8]) -> Option<(u8, usize)> {
    match s.first() {
        Some(b) if b.is_ascii_digit() => Some((b - b'0', 1)),
        _ => wide_digit(s),
    }
}

/// The start of the UTF-8 character that holds byte `i` of `text`.
pub(super) fn char_start(text: &[u8], mut i: usize) -> usize {
    while i > 0 && i < text.len() && (text[i] & 0xC0) == 0x80 {
        i -= 1;
    }
    i
}

/// Which detectors this pass judges for, with their contexts.
pub(crate) struct Judges<'a> {
    /// The `credit_card` detector's context, when it is enabled.
    pub(crate) cards: Option<Option<&'a Context>>,
    /// The `phone` detector's context, when it is enabled.
    pub(crate) phones: Option<Option<&'a Context>>,
    /// The `us_ssn` detector's context, when it is enabled.
    pub(crate) ssns: Option<Option<&'a Context>>,
}

/// What a span this pass found is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    Card,
    Phone,
    Ssn,
}

/// Every card number, and every international phone number (a `+` or
/// full-width `＋` before it), written with a non-ASCII digit in `text`,
/// as `(start, end, what)`. Found from three byte searches for the lead
/// bytes of digits: `EF` (full-width), `D9`, `DB` (Arabic-Indic); the
/// three-byte leads `E0`, `E1`, `EA`; `DF` (NKo) and the four-byte lead
/// `F0`. The three- and four-byte leads also start every
/// letter of their scripts (and emoji): past a hit that is no digit,
/// the search steps over the run of characters of that width and those
/// leads in a plain loop instead of starting again.
pub(crate) fn find(
    text: &[u8],
    judges: &Judges<'_>,
    work: &Work,
    mut emit: impl FnMut(usize, usize, Found),
) {
    let mut scratch = Scratch::default();
    // Per search: its lead bytes, and the width of the characters a
    // lead starts that the search steps over (0: none, the search starts
    // again past a hit that is no digit). Each search is its own
    // instance of `sweep` (no indirect call per character).
    if sweep(
        text,
        |t| memchr::memchr3(0xEF, 0xD9, 0xDB, t),
        |b| usize::from(matches!(b, 0xD8..=0xDB)) * 2,
        judges,
        work,
        &mut scratch,
        &mut emit,
    ) || sweep(
        text,
        |t| memchr::memchr3(0xE0, 0xE1, 0xEA, t),
        |b| {
            if matches!(b, 0xE0 | 0xE1 | 0xEA) {
                3
            } else {
                0
            }
        },
        judges,
        work,
        &mut scratch,
        &mut emit,
    ) {
        return;
    }
    sweep(
        text,
        |t| memchr::memchr2(0xDF, 0xF0, t),
        |b| usize::from(b == 0xF0) * 4,
        judges,
        work,
        &mut scratch,
        &mut emit,
    );
}

/// One byte search of [`find`]: `next` finds a lead byte, `width` says
/// how wide the characters are that the search steps over from it.
/// Returns whether the budget was spent.
#[inline(always)]
fn sweep(
    text: &[u8],
    next: impl Fn(&[u8]) -> Option<usize>,
    width: impl Fn(u8) -> usize,
    judges: &Judges<'_>,
    work: &Work,
    scratch: &mut Scratch,
    emit: &mut impl FnMut(usize, usize, Found),
) -> bool {
    let mut at = 0;
    while let Some(p) = next(&text[at..]).map(|p| at + p) {
        let w = width(text[p]);
        let mut q = p;
        if w > 0 {
            // Over the run of characters of this width, and a single
            // ASCII byte between two of them (the space between two
            // words): no ASCII byte is a wide digit.
            while q + w <= text.len() {
                if width(text[q]) == w {
                    if may_be_digit(&text[q..]) {
                        break;
                    }
                    q += w;
                } else if text[q].is_ascii() && q + 1 + w <= text.len() && width(text[q + 1]) == w {
                    q += 1;
                } else {
                    break;
                }
            }
            at = q.max(p + 1);
            if q + w > text.len() || width(text[q]) != w || wide_digit(&text[q..]).is_none() {
                continue;
            }
        } else {
            at = p + 1;
            if wide_digit(&text[p..]).is_none() {
                continue;
            }
        }
        at = at.max(judge(text, q, judges, work, scratch, emit));
        if work.spent() {
            return true;
        }
    }
    false
}

/// Whether the character at the start of `s` may be a digit: one load
/// from [`BMP_DIGITS`] for a three-byte character (the word its lead and
/// second byte name, the bit its last byte does); [`wide_digit`] for a
/// four-byte one. A `true` is read again by [`wide_digit`].
#[inline(always)]
fn may_be_digit(s: &[u8]) -> bool {
    match *s {
        [b0 @ 0xE0..=0xEF, b1, b2, ..] => {
            BMP_DIGITS[((usize::from(b0 & 0x0F) << 6) | usize::from(b1 & 0x3F)) & 0x3FF]
                & (1 << (b2 & 0x3F))
                != 0
        }
        [b0 @ 0xC2..=0xDF, b1, ..] => BMP_DIGITS[usize::from(b0 & 0x1F)] & (1 << (b1 & 0x3F)) != 0,
        _ => wide_digit(s).is_some(),
    }
}

/// The copy and its map back, reused across runs.
#[derive(Default)]
struct Scratch {
    copy: Vec<u8>,
    map: Vec<usize>,
}

/// The run of digits and gaps around the wide digit at `p`: judged as a
/// card and, after a `+`, as a phone. Returns where the run ends.
fn judge(
    text: &[u8],
    p: usize,
    judges: &Judges<'_>,
    work: &Work,
    scratch: &mut Scratch,
    emit: &mut impl FnMut(usize, usize, Found),
) -> usize {
    let Scratch { copy, map } = scratch;
    // The run's start: back over ASCII digits glued before it (a
    // number begun in ASCII), at most 19.
    let start = p - validate::run_back(&text[..p], 19, |b| b.is_ascii_digit());
    // The left edge: no letter or digit (of any script) glued before;
    // a `+` (ASCII or full-width) before it starts a phone.
    let mut plus = None;
    if let Some(prev) = start.checked_sub(1).map(|i| char_start(text, i)) {
        if text[prev].is_ascii_alphanumeric() || digit(&text[prev..]).is_some() {
            work.charge(4);
            return p + 1;
        }
        if text[prev] == b'+' || text[prev..].starts_with("＋".as_bytes()) {
            plus = Some(prev);
        }
    }
    // The run: digits and single gaps, copied with ASCII digits.
    let lead = plus.unwrap_or(start);
    let from = char_start(text, lead.saturating_sub(BEFORE));
    copy.clear();
    map.clear();
    copy.extend_from_slice(&text[from..lead]);
    if plus.is_some() {
        copy.push(b'+');
    }
    let s0 = copy.len();
    let mut i = start;
    let mut digits = 0;
    let mut wide = false;
    map.push(start);
    while copy.len() - s0 < MAX_RUN {
        if let Some((d, n)) = digit(&text[i..]) {
            wide |= n > 1;
            copy.push(b'0' + d);
            i += n;
            digits += 1;
            map.push(i);
            continue;
        }
        match validate::gap_len(text, i) {
            Some(g) if digit(&text[i + g..]).is_some() => {
                for k in 1..=g {
                    copy.push(text[i + k - 1]);
                    map.push(i + k);
                }
                i += g;
            }
            _ => break,
        }
    }
    let run_end = i;
    work.charge(run_end - start);
    let card = judges.cards.is_some() && (13..=40).contains(&digits);
    let phone = judges.phones.is_some() && plus.is_some() && (8..=15).contains(&digits);
    // An SSN in any script's digits (issue 36, twenty-first round): nine
    // digits, judged as the ASCII shapes judge them: with dashes (or
    // `_`) between its three groups anywhere, with any other gap or none
    // only after an SSN word. Cost in precision: none beyond the SSN
    // checks' own.
    let ssn = judges.ssns.is_some() && plus.is_none() && digits == 9;
    if !wide || !(card || phone || ssn) {
        return run_end;
    }
    let e0 = copy.len();
    let to = char_start(text, text.len().min(run_end + AFTER));
    let to = if to < run_end { run_end } else { to };
    copy.extend_from_slice(&text[run_end..to]);
    work.charge(copy.len());
    if work.spent() {
        return run_end;
    }
    // A copy offset back to the original: the run's bytes by the map;
    // the copied `+` to the original's (one or three bytes).
    let back = |k: usize| -> Option<usize> {
        if let (Some(pl), true) = (plus, k + 1 == s0) {
            return Some(pl);
        }
        k.checked_sub(s0).and_then(|k| map.get(k)).copied()
    };
    if ssn && let Some(ctx) = judges.ssns {
        let run = &copy[s0..e0];
        let dashed = run
            .iter()
            .filter(|b| !b.is_ascii_digit())
            .all(|&b| matches!(b, b'-' | b'_'))
            && run.iter().any(|&b| matches!(b, b'-' | b'_'));
        let how = if dashed { Check::Ssn } else { Check::SsnLoose };
        if let Some((cs, ce)) = validate::check(how, copy, s0, e0, ctx, work)
            && let (Some(os), Some(oe)) = (back(cs), back(ce))
        {
            emit(os, oe, Found::Ssn);
        }
        return run_end;
    }
    if card
        && let Some(ctx) = judges.cards
        && let Some((cs, ce)) = validate::check(Check::Luhn, copy, s0, e0, ctx, work)
        // (A span the check widened before the run maps to nothing.)
        && let (Some(os), Some(oe)) = (back(cs), back(ce))
    {
        emit(os, oe, Found::Card);
        return run_end;
    }
    if phone
        && let Some(ctx) = judges.phones
        && let Some((cs, ce)) = validate::check(Check::Phone, copy, s0 - 1, e0, ctx, work)
        && let (Some(os), Some(oe)) = (back(cs), back(ce))
    {
        emit(os, oe, Found::Phone);
    }
    run_end
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const JUDGES: Judges<'static> = Judges {
        cards: Some(None),
        phones: Some(None),
        ssns: Some(None),
    };

    fn found(text: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        find(text.as_bytes(), &JUDGES, &Work::unlimited(), |s, e, _| {
            out.push((s, e))
        });
        out
    }

    /// The step loop's one-load test is [`wide_digit`]'s answer for every
    /// character past ASCII (every scalar value, each at the start of a
    /// text and followed by more).
    #[test]
    fn may_be_digit_is_wide_digit_for_every_character() {
        let mut buf = [0u8; 8];
        for c in ('\u{80}'..=char::MAX).filter(|c| c.len_utf8() > 1) {
            let n = c.encode_utf8(&mut buf).len();
            buf[n] = b'x';
            let s = &buf[..=n];
            assert_eq!(
                may_be_digit(s),
                wide_digit(s).is_some(),
                "U+{:04X}",
                c as u32
            );
        }
    }

    #[test]
    fn a_full_width_card_maps_back_to_its_bytes() {
        let card = "４１１１　１１１１　１１１１　１１１１";
        let text = format!("カード番号：{card}\n");
        let start = text.find(card).unwrap();
        assert_eq!(found(&text), vec![(start, start + card.len())]);
    }

    /// Every byte copied is charged: a text of many short wide-digit runs
    /// costs linear work, and a run longer than [`MAX_RUN`] is read no
    /// further.
    #[test]
    fn the_copy_is_charged_and_bounded() {
        let text = "１２３ ".repeat(2000);
        let work = Work::unlimited();
        find(text.as_bytes(), &JUDGES, &work, |_, _, _| {});
        assert!(work.steps() <= 2 * text.len() as u64, "{}", work.steps());
        let text = "１".repeat(5000);
        let work = Work::unlimited();
        let mut n = 0;
        find(text.as_bytes(), &JUDGES, &work, |_, _, _| n += 1);
        assert_eq!(n, 0);
        assert!(work.steps() <= 4 * text.len() as u64, "{}", work.steps());
    }
}
