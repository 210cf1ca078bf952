//! Finding what to redact: one regex pass, one keyword pass, then overlap
//! resolution into non-overlapping regions.

use std::cmp::Reverse;

use regex_automata::{Anchored, Input, PatternSet};

use super::keywords::char_width;
use super::token::overlaps_token;
use super::{Action, Redactor, validate};

/// A span to replace and the detector that wins it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Region {
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// Detector index = priority rank (lower wins ties).
    pub(crate) det: u32,
    /// A `drop` detector matched somewhere inside this region.
    pub(crate) drop: bool,
}

impl Redactor {
    /// The regions of `text` to replace, sorted and non-overlapping.
    pub(crate) fn regions(&self, text: &str) -> Vec<Region> {
        let mut cands = Vec::new();
        self.regex_pass(text, &mut cands);
        let regex_only = cands.len();
        let bytes = text.as_bytes();
        self.keywords.find(
            text,
            |s, e| !overlaps_token(bytes, s, e),
            |start, end, det| {
                cands.push(Region {
                    start,
                    end,
                    det,
                    drop: false,
                })
            },
        );
        if cands.len() > regex_only {
            // Leftmost, then longest, then highest priority.
            cands.sort_unstable_by_key(|c| (c.start, Reverse(c.end), c.det));
        }
        let mut regions: Vec<Region> = Vec::with_capacity(cands.len());
        for mut c in cands {
            c.drop = self.dets[c.det as usize].action == Action::Drop;
            if let Some(last) = regions.last_mut()
                && c.start < last.end
            {
                // SECURITY: a partial overlap is merged into the winner, not
                // dropped: the loser's tail would otherwise stay in clear.
                last.end = last.end.max(c.end);
                last.drop |= c.drop;
                continue;
            }
            regions.push(c);
        }
        regions
    }

    /// One leftmost-first scan with the multi-pattern regex. At each start
    /// it finds, every pattern is tried anchored there; the longest candidate
    /// that passes its check wins (ties: priority). A start where nothing
    /// passes is abandoned one character later, so a failed long candidate
    /// never hides a valid one that starts inside it.
    fn regex_pass(&self, text: &str, out: &mut Vec<Region>) {
        let Some(rx) = self.regexes.as_deref() else {
            return;
        };
        let mut can_start = PatternSet::new(rx.scan_all.pattern_len());
        let bytes = text.as_bytes();
        let len = bytes.len();
        let mut pos = 0;
        while pos <= len {
            let Some(m) = rx.scan.search(&Input::new(bytes).span(pos..len)) else {
                break;
            };
            let s = m.start();
            // (start, end, det) of the best candidate at `s`.
            let mut best: Option<(usize, usize, u32)> = None;
            can_start.clear();
            let here = Input::new(bytes).span(s..len).anchored(Anchored::Yes);
            rx.scan_all.which_overlapping_matches(&here, &mut can_start);
            for pid in can_start.iter() {
                let Some(&(det, check)) = self.checks.get(pid.as_usize()) else {
                    continue;
                };
                let input = Input::new(bytes)
                    .span(s..len)
                    .anchored(Anchored::Pattern(pid));
                let Some(end) = rx.exact.search(&input).map(|mm| mm.end()) else {
                    continue;
                };
                // A check can only narrow a candidate, so one that is
                // already beaten is not checked at all.
                if end == s || best.is_some_and(|(_, be, bd)| be > end || (be == end && bd <= det))
                {
                    continue;
                }
                let Some((cs, ce)) = validate::check(check, bytes, s, end) else {
                    continue;
                };
                if ce <= cs || overlaps_token(bytes, cs, ce) {
                    continue;
                }
                if best.is_none_or(|(_, be, bd)| ce > be || (ce == be && det < bd)) {
                    best = Some((cs, ce, det));
                }
            }
            match best {
                Some((start, end, det)) => {
                    out.push(Region {
                        start,
                        end,
                        det,
                        drop: false,
                    });
                    pos = end;
                }
                None => pos = s + bytes.get(s).map_or(1, |&b| char_width(b)),
            }
        }
    }
}
