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
//! and user matches that overlap a token are refused), so a new region `R`
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
//!   of a token and end within that of it too, in ASCII text. A keyword's
//!   length is measured in the view (`fold.rs`); in other text a match's
//!   original span is bounded by walking the text from the token
//!   ([`walk_back`], [`walk_on`]) until the characters passed weigh more than
//!   eight times the longest keyword ([`view_weight`]: a starter 8, a
//!   separator 1, a combining mark or an ignorable 0). Why that suffices:
//!   a match of `L` view bytes touches at most `L` clusters and separator
//!   runs with a view, each weighing at most 8 (a cluster holds one
//!   starter at most, with any number of marks and ignorables; a run of up
//!   to eight separators is one blank, a run of more is two, which no
//!   keyword holds), and clusters or runs with no view in between weigh
//!   nothing. Every starter starts a cluster with a view of its own (a test
//!   holds every starter to it), so the match's clusters and runs, from the
//!   one next to the token, weigh at most `8 L`: a walk that passed more
//!   has passed the whole match. Marks and ignorables cost nothing, so a
//!   cluster of any length is walked over whole; the windows never end
//!   inside a cluster either (their edges move past marks and ignorables,
//!   to a starter or a separator): from such an edge on, the window's view
//!   is the text's (the view builder starts every cluster and run afresh
//!   at a starter, and a separator run cut at an edge still reads as one
//!   or two blanks), and the one neighbour a match reads for `whole_word`
//!   either lies inside or is cut off, which reads as a boundary (more
//!   matches, not fewer);
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
use super::fold::{glues, view_weight};
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
    /// The longest keyword's view, in bytes: [`walk_back`] and [`walk_on`]
    /// bound a match with it in text other than ASCII.
    pub(crate) longest: usize,
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

/// How far back from `at` a keyword match that reads the character at `at`
/// (as its `whole_word` neighbour) can start: where the characters walked
/// over first weigh more than `8 * longest` ([`view_weight`]), or 0.
fn walk_back(text: &str, at: usize, longest: usize) -> usize {
    let mut weight = 0;
    let mut lo = at;
    for (i, c) in text.get(..at).unwrap_or_default().char_indices().rev() {
        weight += view_weight(c);
        lo = i;
        if weight > 8 * longest {
            break;
        }
    }
    lo
}

/// How far on from `at` a keyword match that reads the character before
/// `at` can end: as [`walk_back`], forward.
fn walk_on(text: &str, at: usize, longest: usize) -> usize {
    let mut weight = 0;
    let mut hi = at;
    for (i, c) in text.get(at..).unwrap_or_default().char_indices() {
        weight += view_weight(c);
        hi = at + i + c.len_utf8();
        if weight > 8 * longest {
            break;
        }
    }
    hi
}

/// `lo` moved back to a character boundary and then over the combining
/// marks and ignorables that glue onto a character before them: to a
/// starter or a separator, where the view of `text[lo..]` starts a
/// cluster or a run as the view of `text` does.
fn unit_start(text: &str, mut lo: usize) -> usize {
    while !text.is_char_boundary(lo) {
        lo -= 1;
    }
    while let Some(c) = text.get(lo..).and_then(|t| t.chars().next())
        && lo > 0
        && glues(c)
    {
        lo -= 1;
        while !text.is_char_boundary(lo) {
            lo -= 1;
        }
    }
    lo
}

/// `hi` moved on to a character boundary and then over the combining
/// marks and ignorables there, so no cluster is cut at it.
fn unit_end(text: &str, mut hi: usize) -> usize {
    while !text.is_char_boundary(hi) {
        hi += 1;
    }
    while let Some(c) = text.get(hi..).and_then(|t| t.chars().next())
        && glues(c)
    {
        hi += c.len_utf8();
    }
    hi
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
        // Keywords match on the view; in text other than ASCII a view byte
        // may stand for a cluster of any length, and the windows are
        // walked off the text ([`walk_back`]).
        let wide = !self.keywords.is_empty() && !text.is_ascii();
        let reach = settle.reach;
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
        // whose leading `\b` now sees the token's `]`).
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
            let (mut lo, hi) = if wide {
                // The bounded shapes' reach in bytes, the keywords' by
                // weight, and no cluster cut at either edge.
                let lo = a
                    .saturating_sub(BOUNDED_REACH)
                    .min(walk_back(text, a, settle.longest));
                let hi = (b + BOUNDED_REACH)
                    .min(len)
                    .max(walk_on(text, b, settle.longest));
                (unit_start(text, lo), unit_end(text, hi))
            } else {
                (a.saturating_sub(reach), (b + reach).min(len))
            };
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
            window = match window {
                Some((wl, wh)) if lo <= wh => Some((wl.min(lo), wh.max(hi))),
                Some(w) => {
                    if self.finds_any(text, w, work) {
                        return false;
                    }
                    Some((lo, hi))
                }
                None => Some((lo, hi)),
            };
        }
        !window.is_some_and(|w| self.finds_any(text, w, work))
    }

    /// Whether `text[lo..hi]` (widened to character boundaries), scanned as
    /// a text of its own, has any region.
    fn finds_any(&self, text: &str, (mut lo, mut hi): (usize, usize), work: &Work) -> bool {
        while !text.is_char_boundary(lo) {
            lo -= 1;
        }
        while !text.is_char_boundary(hi) {
            hi += 1;
        }
        text.get(lo..hi)
            .is_none_or(|w| !self.regions(w, work).is_empty())
    }
}
