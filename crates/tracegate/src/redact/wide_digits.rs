//! Card numbers spelled in decimal digits that are not ASCII (issue 36,
//! sixteenth round): full-width `５０６２　２１９０…` in a Japanese form,
//! Arabic-Indic `٤١١١…`. A number spelled in other digits is still the
//! number: the regex shapes read ASCII digits only, so this pass finds a
//! run of digits with at least one non-ASCII digit in it, writes it with
//! ASCII digits into a copy of its neighbourhood (the gaps, and the text
//! around it, kept as they are), and asks the card check
//! ([`validate::check`] with [`Check::Luhn`]: grouping, issuer or card
//! word, Luhn, the look-alikes) of the copy. A number it takes is mapped
//! back to the original bytes.
//!
//! Which digits: those of the scripts whose digit block's lead bytes the
//! byte search stops at: full-width (U+FF10-U+FF19, `EF BC 90`-`99`),
//! Arabic-Indic (U+0660-U+0669, `D9 A0`-`A9`) and Extended Arabic-Indic
//! (U+06F0-U+06F9, `DB B0`-`B9`). Cost: cards in other scripts' digits
//! (Devanagari, Bengali, Thai…) are not found: their lead byte (`E0`)
//! starts every character of those scripts, and stopping at each would
//! cost the multilingual full level about a byte loop.
//!
//! Cost in time: a vector search for three lead bytes over texts that hold
//! a byte outside ASCII; per hit, a few bytes decoded; per run of 13 or
//! more digits, the copy and the card check, charged to the work budget.

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

/// The value of the non-ASCII decimal digit that starts `s`, and its
/// UTF-8 length: any script's decimal digits (Unicode `Nd`) whose block
/// this pass reads (issue 36, seventeenth round: by class, not by the
/// scripts a corpus used): full-width, Arabic-Indic and Extended
/// Arabic-Indic (Persian, Urdu); Devanagari, Bengali, Gurmukhi,
/// Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam (`E0 A5`-`B5`, odd
/// second bytes, `A6`-`AF`); Thai and Lao (`E0 B9`/`BB`, `90`-`99`);
/// Tibetan (`E0 BC A0`-`A9`); Myanmar (`E1 81 80`-`89`), Khmer (`E1 9F
/// A0`-`A9`) and Mongolian (`E1 A0 90`-`99`).
fn wide_digit(s: &[u8]) -> Option<(u8, usize)> {
    match *s {
        [0xEF, 0xBC, d @ 0x90..=0x99, ..] => Some((d - 0x90, 3)),
        [0xD9, d @ 0xA0..=0xA9, ..] => Some((d - 0xA0, 2)),
        [0xDB, d @ 0xB0..=0xB9, ..] => Some((d - 0xB0, 2)),
        [
            0xE0,
            0xA5 | 0xA7 | 0xA9 | 0xAB | 0xAD | 0xAF | 0xB1 | 0xB3 | 0xB5,
            d @ 0xA6..=0xAF,
            ..,
        ] => Some((d - 0xA6, 3)),
        [0xE0, 0xB9 | 0xBB, d @ 0x90..=0x99, ..] | [0xE1, 0xA0, d @ 0x90..=0x99, ..] => {
            Some((d - 0x90, 3))
        }
        [0xE0, 0xBC, d @ 0xA0..=0xA9, ..] | [0xE1, 0x9F, d @ 0xA0..=0xA9, ..] => {
            Some((d - 0xA0, 3))
        }
        [0xE1, 0x81, d @ 0x80..=0x89, ..] => Some((d - 0x80, 3)),
        _ => None,
    }
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
fn char_start(text: &[u8], mut i: usize) -> usize {
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
}

/// What a span this pass found is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    Card,
    Phone,
}

/// Every card number, and every international phone number (a `+` or
/// full-width `＋` before it), written with a non-ASCII digit in `text`,
/// as `(start, end, what)`. Found from two byte searches: one for the
/// lead bytes of full-width and Arabic-Indic digits, one for the lead
/// bytes `E0`/`E1` of the other scripts' digits, which also start every
/// letter of those scripts: past a hit that is no digit, the search
/// steps over the run of three-byte characters with those leads in a
/// plain loop instead of starting again.
pub(crate) fn find(
    text: &[u8],
    judges: &Judges<'_>,
    work: &Work,
    mut emit: impl FnMut(usize, usize, Found),
) {
    let mut scratch = Scratch::default();
    let mut at = 0;
    while let Some(p) = memchr::memchr3(0xEF, 0xD9, 0xDB, &text[at..]).map(|p| at + p) {
        at = p + 1;
        if wide_digit(&text[p..]).is_none() {
            continue;
        }
        at = at.max(judge(text, p, judges, work, &mut scratch, &mut emit));
        if work.spent() {
            return;
        }
    }
    let mut at = 0;
    while let Some(p) = memchr::memchr2(0xE0, 0xE1, &text[at..]).map(|p| at + p) {
        let mut q = p;
        while q + 3 <= text.len()
            && matches!(text[q], 0xE0 | 0xE1)
            && wide_digit(&text[q..]).is_none()
        {
            q += 3;
        }
        at = q.max(p + 1);
        if q + 3 > text.len() || !matches!(text[q], 0xE0 | 0xE1) {
            continue;
        }
        at = at.max(judge(text, q, judges, work, &mut scratch, &mut emit));
        if work.spent() {
            return;
        }
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
    if !wide || !(card || phone) {
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
    };

    fn found(text: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        find(text.as_bytes(), &JUDGES, &Work::unlimited(), |s, e, _| {
            out.push((s, e))
        });
        out
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
