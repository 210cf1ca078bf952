//! Whether a redacted text is already a fixed point, without scanning all
//! of it again.
//!
//! [`Redactor::redact`] redacts to a fixed point because a detector may judge
//! a candidate by its neighbours, and a replacement changes neighbours. A
//! second pass over the whole output doubles the cost of every text with a
//! secret in it; this module looks only where a second pass *can* find
//! something, and answers "settled" only when it finds nothing there.
//!
//! # Why the windows suffice
//!
//! Call the output `S0 T1 S1 T2 ... Sk`: segments `Si` of the input and the
//! tokens `Ti` that replaced the first pass's regions. No candidate of the
//! second pass overlaps a token (no built-in class contains `[`; keyword
//! and user matches that overlap a token are refused, and so is a built-in
//! match whose name part reads one, `scan.rs`), so a new region `R`
//! lies inside one segment. Everything the first pass computed for a start
//! in that segment is a function of the bytes it *read*: the regex engine's
//! walk from the start until its automaton dies, the check's context (at most
//! two bytes either side, `validate.rs`) and, for keywords, one character on
//! each side. If those bytes do not reach a token, the first pass saw the
//! same bytes, reached the same start (the scan advances only over regions
//! and failed starts) and decided the same way, and `R` would already be a
//! region. So the reads of `R` reach a token, and then:
//!
//! - **bounded shapes** (cards, IBANs, SSNs, phones, IPs, fixed-length keys)
//!   and **keywords** start within [`BOUNDED_REACH`] (or the longest keyword)
//!   of a token and end within that of it too. A keyword's length is
//!   measured in the view (`fold.rs`); in text whose every cluster is one
//!   character (no combining mark, no ignorable) each cluster a match
//!   touches gives it at least one view byte, so the match covers at most
//!   as many clusters as its view bytes: four original bytes each, or a
//!   separator run of up to eight characters of three bytes for each blank
//!   ([`Settle::wide_reach`]). A cluster with marks or ignorables in it has
//!   no such bound, and a window that holds one sends the text to the full
//!   second pass (a match that reads a token covers the clusters next to
//!   it first, so clusters beyond its window cannot matter);
//! - **unbounded shapes without a trailing assertion** (`sk-…`, JWT, bearer
//!   tokens, `github_pat_…`) cannot be new on the left of a token: their
//!   second-pass match is a match in the first pass too, which would have
//!   been a region (a longer one would have been merged with the token's).
//!   On the right of a token they can be new through their leading `\b`,
//!   which reads only the byte before: starts right after a token are tried
//!   on the whole text;
//! - **emails** succeed or fail by what follows the `@` alone, so a new one
//!   ends exactly at a token: the window is stretched back over its domain,
//!   `@` and local part.
//!
//! User patterns are arbitrary regexes with no such bound: a redactor with
//! any makes the full second pass, as before.
//!
//! Scanning a window as a text of its own loses context at its edges, which
//! can only *add* matches there (a lost neighbour reads as a boundary), never
//! hide one whose reads lie inside the window: any match at all sends the
//! text to the full second pass, so extra ones cost time, not correctness.
//! `tests.rs` (`settled_agrees_with_a_full_second_pass`) holds this to the
//! full pass on adversarial text.

use super::budget::Work;
use super::fold::clusters_are_chars;
use super::validate::{GAP_BYTES, MAX_GAP};
use super::{Edit, Redactor};

/// How far a bounded built-in shape, its check's context and the automaton's
/// walk reach from a start: the longest bounded shape (a password in a URL,
/// 125 bytes; an AWS secret key with its name, 81) plus context, rounded
/// up.
pub(crate) const BOUNDED_REACH: usize = 128;

/// What [`Redactor::settled`] needs to know about a redactor.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settle {
    /// How far from a token a second pass can find something new, in ASCII
    /// text.
    pub(crate) reach: usize,
    /// The same in text whose clusters are one character each
    /// ([`clusters_are_chars`]).
    pub(crate) wide_reach: usize,
    /// No keyword starts or ends with ASCII whitespace, so [`spaced`] tokens
    /// need no look at all.
    pub(crate) spaced_ok: bool,
}

/// A token at `a..b` that nothing can notice: blanks on both sides and no
/// capital, digit or `)` before the gap that ends in the left one.
///
/// Why: a second-pass match that reads a token must read it through a
/// neighbour. On the right, every start after the blank reads at most the
/// blank (edges and `whole_word` read one byte; the checks look back past
/// a gap (at most five bytes) or `,` for a digit, which a token's `]` is
/// not, or only in shapes that need a context word, which no token lets
/// through), and none starts with a blank. On the left, a match that ends before the
/// blank reads the blank at most (as an edge, `whole_word` or context), as
/// in the first pass; one that would end *at* the token ends in a blank,
/// which only a keyword can ([`Settle::spaced_ok`] rules that out); and one
/// whose first-pass walk went on through the blank into the replaced text
/// was a card, SSN, phone or IBAN shape, which walk through a gap (a run
/// of up to four gap bytes ending in the blank) only after a digit, a
/// letter or `)`. After a lowercase letter only an IBAN does, and the
/// IBAN check reads nothing past its candidate's end: the first pass tried
/// the prefix that ends before the gap (its shrink rule), which is all the
/// second pass's walk can match. (A keyword that went on through the blank
/// was a first-pass match overlapping the replaced text, so merged into
/// it.)
fn spaced(bytes: &[u8], a: usize, b: usize) -> bool {
    let blank = |i: usize| bytes.get(i).is_none_or(u8::is_ascii_whitespace);
    let left = a == 0
        || (blank(a - 1) && {
            let gap = bytes[..a]
                .iter()
                .rev()
                .take(MAX_GAP)
                .take_while(|b| GAP_BYTES.contains(b))
                .count();
            let i = a - gap;
            i == 0 || !matches!(bytes[i - 1], b'A'..=b'Z' | b'0'..=b'9' | b')')
        });
    left && blank(b)
}

/// `[A-Za-z0-9.-]`: a byte of an email domain.
fn domain_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'.' || b == b'-'
}

/// `[A-Za-z0-9._%+-]`: a byte of an email local part.
fn local_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-')
}

impl Redactor {
    /// True when redacting `text` (the output of one pass, whose tokens sit
    /// at `edits`' `to` spans, sorted) again would change nothing.
    pub(crate) fn settled(&self, text: &str, edits: &[Edit], work: &Work) -> bool {
        let Some(settle) = self.settle else {
            return false;
        };
        // Keywords match on the view, whose bytes stand for up to four
        // original bytes each where every cluster is one character; a
        // cluster may hold any number of ignorables and combining marks,
        // and a window that holds one bounds no match ([`Redactor::finds_any`]).
        let wide = !self.keywords.is_empty() && !text.is_ascii();
        let reach = if wide {
            settle.wide_reach
        } else {
            settle.reach
        };
        let bytes = text.as_bytes();
        let len = bytes.len();
        // The tokens a second pass could notice.
        let open = || {
            edits
                .iter()
                .map(|e| (e.to.start, e.to.end))
                .filter(move |&(a, b)| !(settle.spaced_ok && spaced(bytes, a, b)))
        };
        if open().next().is_none() {
            return true;
        }
        // Starts right after a token, on the whole text (unbounded shapes
        // whose leading `\b` now sees the token's `]`), in text order: the
        // table memo, forgotten once here (this text may sit where an
        // earlier one did), serves all of them.
        work.forget_tables();
        for (_, b) in open() {
            for s in b..(b + 3).min(len + 1) {
                if text.is_char_boundary(s) && self.shape_at(bytes, s, work) {
                    return false;
                }
            }
        }
        // Windows around the tokens, merged, each scanned as a text.
        let mut window: Option<(usize, usize)> = None;
        for (a, b) in open() {
            let mut lo = a.saturating_sub(reach);
            // An email ending at the token: its domain, `@` and local part.
            let mut t = a;
            while t > 0 && domain_byte(bytes[t - 1]) {
                t -= 1;
            }
            if t > 0 && bytes[t - 1] == b'@' {
                let mut r = t - 1;
                while r > 0 && local_byte(bytes[r - 1]) {
                    r -= 1;
                }
                lo = lo.min(r);
            }
            let hi = (b + reach).min(len);
            window = match window {
                Some((wl, wh)) if lo <= wh => Some((wl.min(lo), wh.max(hi))),
                Some(w) => {
                    if self.finds_any(text, w, wide, work) {
                        return false;
                    }
                    Some((lo, hi))
                }
                None => Some((lo, hi)),
            };
        }
        !window.is_some_and(|w| self.finds_any(text, w, wide, work))
    }

    /// Whether `text[lo..hi]` (widened to character boundaries), scanned as
    /// a text of its own, has any region; or, when it was sized for `wide`
    /// text, whether it holds a cluster of several characters, which the
    /// size does not bound.
    fn finds_any(
        &self,
        text: &str,
        (mut lo, mut hi): (usize, usize),
        wide: bool,
        work: &Work,
    ) -> bool {
        while !text.is_char_boundary(lo) {
            lo -= 1;
        }
        while !text.is_char_boundary(hi) {
            hi += 1;
        }
        text.get(lo..hi)
            .is_none_or(|w| (wide && !clusters_are_chars(w)) || !self.regions(w, work).is_empty())
    }
}
