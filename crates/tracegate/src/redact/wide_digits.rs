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
/// UTF-8 length.
fn wide_digit(s: &[u8]) -> Option<(u8, usize)> {
    match *s {
        [0xEF, 0xBC, d @ 0x90..=0x99, ..] => Some((d - 0x90, 3)),
        [0xD9, d @ 0xA0..=0xA9, ..] => Some((d - 0xA0, 2)),
        [0xDB, d @ 0xB0..=0xB9, ..] => Some((d - 0xB0, 2)),
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

/// Every card number written with a non-ASCII digit in `text`, as
/// `(start, end)`, in increasing order. `ctx` is the `credit_card`
/// detector's context, if any.
pub(crate) fn find(
    text: &[u8],
    ctx: Option<&Context>,
    work: &Work,
    mut emit: impl FnMut(usize, usize),
) {
    let mut at = 0;
    let mut copy: Vec<u8> = Vec::new();
    let mut map: Vec<usize> = Vec::new();
    while let Some(p) = memchr::memchr3(0xEF, 0xD9, 0xDB, &text[at..]).map(|p| at + p) {
        at = p + 1;
        if wide_digit(&text[p..]).is_none() {
            continue;
        }
        // The run's start: back over ASCII digits glued before it (a
        // number begun in ASCII), at most 19.
        let start = p - validate::run_back(&text[..p], 19, |b| b.is_ascii_digit());
        // The left edge: no letter or digit (of any script) glued before.
        if let Some(prev) = start.checked_sub(1).map(|i| char_start(text, i))
            && (text[prev].is_ascii_alphanumeric() || digit(&text[prev..]).is_some())
        {
            work.charge(4);
            continue;
        }
        // The run: digits and single gaps, copied with ASCII digits.
        let from = char_start(text, start.saturating_sub(BEFORE));
        copy.clear();
        map.clear();
        copy.extend_from_slice(&text[from..start]);
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
        at = at.max(run_end);
        work.charge(run_end - start);
        if !wide || !(13..=40).contains(&digits) {
            continue;
        }
        let e0 = copy.len();
        let to = char_start(text, text.len().min(run_end + AFTER));
        let to = if to < run_end { run_end } else { to };
        copy.extend_from_slice(&text[run_end..to]);
        work.charge(copy.len());
        if work.spent() {
            return;
        }
        if let Some((cs, ce)) = validate::check(Check::Luhn, &copy, s0, e0, ctx, work)
            // (A span the check widened before the run maps to nothing.)
            && let (Some(&os), Some(&oe)) = (
                cs.checked_sub(s0).and_then(|k| map.get(k)),
                ce.checked_sub(s0).and_then(|k| map.get(k)),
            )
        {
            emit(os, oe);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        find(text.as_bytes(), None, &Work::unlimited(), |s, e| {
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
        find(text.as_bytes(), None, &work, |_, _| {});
        assert!(work.steps() <= 2 * text.len() as u64, "{}", work.steps());
        let text = "１".repeat(5000);
        let work = Work::unlimited();
        let mut n = 0;
        find(text.as_bytes(), None, &work, |_, _| n += 1);
        assert_eq!(n, 0);
        assert!(work.steps() <= 4 * text.len() as u64, "{}", work.steps());
    }
}
