//! Finding what to redact: one regex pass, one keyword pass, then overlap
//! resolution into non-overlapping regions.

use std::cell::RefCell;
use std::cmp::Reverse;

use regex_automata::{Anchored, Input, PatternID, PatternSet};

use super::budget::Work;
use super::detectors::Check;
use super::keywords::char_width;
use super::token::overlaps_token;
use super::trigger::Starts;
use super::{Action, Meta, Redactor, Regexes, validate};

/// The position one character after `s` (the end of the text counts as one
/// byte): where a scan resumes after a start that yields nothing.
fn next_char(bytes: &[u8], s: usize) -> usize {
    s + bytes.get(s).map_or(1, |&b| char_width(b))
}

/// Regions whose check moved their start past the start their shape was
/// matched from (a key's value after its name, an address whose local part
/// lost the sentence glued before it). Each is a candidate at its own start
/// and waits there while the starts before it get their turn: taking it at
/// the earlier start would skip the text in between unread, and a secret
/// there would pass the first pass (and, where `settle.rs` spares the
/// second, the output).
#[derive(Default)]
struct Waiting(Vec<Region>);

impl Waiting {
    /// When the scan's next start is `next` (`None`: no start is left) and
    /// that is at or past the first waiting region's start: that region,
    /// committed to `out`; returns its end.
    fn due(&mut self, next: Option<usize>, out: &mut Vec<Region>) -> Option<usize> {
        let (i, first) = self
            .0
            .iter()
            .enumerate()
            .min_by_key(|(_, r)| (r.start, Reverse(r.end)))?;
        if next.is_some_and(|s| s < first.start) {
            return None;
        }
        let first = self.0.swap_remove(i);
        self.commit(first, out);
        Some(first.end)
    }

    /// `r` into `out`; a waiting region it overlaps keeps what lies past
    /// it (they all start at or after `r`).
    fn commit(&mut self, r: Region, out: &mut Vec<Region>) {
        out.push(r);
        self.0.retain_mut(|w| {
            w.start = w.start.max(r.end);
            w.start < w.end
        });
    }
}

/// Per-thread buffers of [`Redactor::regex_pass`].
#[derive(Default)]
struct PassScratch {
    waiting: Waiting,
    starts: Starts,
    can_start: Option<PatternSet>,
    /// Per pattern id: no start before this position can succeed (a
    /// failed start of a monotone shape ruled them out).
    dead: Vec<usize>,
}

/// The pattern set in `slot`, sized for `patterns` shapes.
fn sized(slot: &mut Option<PatternSet>, patterns: usize) -> &mut PatternSet {
    if slot.as_ref().is_some_and(|set| set.capacity() != patterns) {
        *slot = None;
    }
    slot.get_or_insert_with(|| PatternSet::new(patterns))
}

thread_local! {
    static SCRATCH: RefCell<PassScratch> = RefCell::new(PassScratch::default());
}

/// Runs `f` with this thread's [`PassScratch`] (fresh buffers if it is
/// already in use further up the stack).
fn with_scratch<R>(f: impl FnOnce(&mut PassScratch) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut PassScratch::default()),
    })
}

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

impl Region {
    /// What a pass beside the scan found: `start..end` for detector `det`.
    fn found(start: usize, end: usize, det: u32) -> Self {
        Region {
            start,
            end,
            det,
            drop: false,
        }
    }
}

impl Redactor {
    /// The regions of `text` to replace, sorted and non-overlapping.
    ///
    /// Work is charged to `work`; when it is spent the scan stops early and
    /// the regions are incomplete: the caller must check
    /// [`Work::spent`] and fail closed.
    pub(crate) fn regions(&self, text: &str, work: &Work) -> Vec<Region> {
        work.forget_tables();
        let mut cands = Vec::new();
        self.regex_pass(text, &mut cands, work);
        let regex_only = cands.len();
        let bytes = text.as_bytes();
        if work.spent() {
            return cands;
        }
        self.keywords.find(
            text,
            work,
            |s, e| !overlaps_token(bytes, s, e),
            |start, end, det| cands.push(Region::found(start, end, det)),
        );
        if let Some(det) = self.slots {
            super::slots::find(bytes, work, |start, end| {
                cands.push(Region::found(start, end, det))
            });
        }
        if let Some(det) = self.keys {
            super::containers::find(bytes, work, |start, end| {
                cands.push(Region::found(start, end, det))
            });
        }
        if self.slots.is_some()
            || self.jwts.is_some()
            || self.emails.is_some()
            || self.urls.is_some()
            || self.keys.is_some()
        {
            let (slots, jwts, emails, urls, keys) =
                (self.slots, self.jwts, self.emails, self.urls, self.keys);
            let det = |what| match what {
                super::carriers::Found::ApiKey => slots,
                super::carriers::Found::Jwt => jwts,
                super::carriers::Found::Email => emails,
                super::carriers::Found::UrlCredentials => urls,
                super::carriers::Found::PrivateKey => keys,
            };
            super::carriers::find(
                bytes,
                work,
                |what| det(what).is_some(),
                |start, end, what| {
                    cands.extend(det(what).map(|det| Region::found(start, end, det)))
                },
            );
        }
        // Private keys in other byte encodings (issue 36, twentieth round):
        // only when the detector is on, so a policy without it pays nothing.
        if let Some(det) = self.keys {
            super::key_text::find(bytes, work, &mut |start, end| {
                cands.push(Region::found(start, end, det));
            });
        }
        if self.cards.is_some() || self.phones.is_some() || self.ssns.is_some() {
            let ctx = |det: u32| self.contexts.get(det as usize).and_then(Option::as_ref);
            let judges = super::wide_digits::Judges {
                cards: self.cards.map(ctx),
                phones: self.phones.map(ctx),
                ssns: self.ssns.map(ctx),
            };
            let (cards, phones, ssns) = (self.cards, self.phones, self.ssns);
            super::wide_digits::find(bytes, &judges, work, |start, end, what| {
                let det = match what {
                    super::wide_digits::Found::Card => cards,
                    super::wide_digits::Found::Phone => phones,
                    super::wide_digits::Found::Ssn => ssns,
                };
                cands.extend(det.map(|det| Region::found(start, end, det)));
            });
        }
        // Values whose groups an escape of their container sets apart
        // (`escaped_gaps.rs`): each window around such escapes, the
        // escapes replaced by their gaps, is scanned again; what it
        // finds over a replaced escape maps back. The table memo holds
        // this text's rows: it is forgotten around the window's pass.
        if self.regexes.is_some() {
            let mut found = Vec::new();
            super::escaped_gaps::windows(bytes, work, |w| {
                let Ok(copy) = std::str::from_utf8(&w.copy) else {
                    return;
                };
                found.clear();
                work.forget_tables();
                self.regex_pass(copy, &mut found, work);
                work.forget_tables();
                cands.extend(found.iter().filter_map(|r| {
                    let (s, e) = w.back(r.start, r.end)?;
                    Some(Region::found(s, e, r.det))
                }));
            });
        }
        if cands.len() > regex_only {
            // Leftmost, then longest, then highest priority.
            cands.sort_unstable_by_key(|c| (c.start, Reverse(c.end), c.det));
        }
        // Resolve overlaps in place: `kept` regions stand at the front.
        let mut kept: usize = 0;
        for i in 0..cands.len() {
            let mut c = cands[i];
            c.drop = self.dets[c.det as usize].action == Action::Drop;
            if let Some(last) = kept.checked_sub(1).map(|k| &mut cands[k])
                && c.start < last.end
            {
                // SECURITY: a partial overlap is merged into the winner, not
                // dropped: the loser's tail would otherwise stay in clear.
                last.end = last.end.max(c.end);
                last.drop |= c.drop;
                continue;
            }
            cands[kept] = c;
            kept += 1;
        }
        cands.truncate(kept);
        cands
    }

    /// One leftmost-first pass over the regex shapes. Candidate starts come
    /// from [`Starts`] (built-ins) and the user-pattern scan; at each, in
    /// order, every shape that can start there is tried anchored; the
    /// longest candidate that passes its check wins (ties: priority). A
    /// start where nothing passes is abandoned one character later, so a
    /// failed long candidate never hides a valid one that starts inside it.
    fn regex_pass(&self, text: &str, out: &mut Vec<Region>, work: &Work) {
        let Some(rx) = self.regexes.as_deref() else {
            return;
        };
        // The candidate lists and pattern set are reused across calls on
        // this thread: allocating them per text was a tenth of a run.
        with_scratch(|scratch| self.regex_pass_with(rx, text, scratch, out, work));
    }

    /// Whether some regex shape matches and passes its check at `s`: the
    /// question `settle.rs` asks right after a token. Only for redactors
    /// without user patterns (those always make the full second pass).
    /// The caller forgets the table memo before its first question on a
    /// text (`Work::forget_tables`), not before each: the memo then
    /// reads a table's rows once for all the tokens on it.
    pub(super) fn shape_at(&self, bytes: &[u8], s: usize, work: &Work) -> bool {
        let Some(rx) = self.regexes.as_deref() else {
            return false;
        };
        with_scratch(|scratch| {
            let can_start = sized(&mut scratch.can_start, rx.pattern_len);
            self.best_at(rx, bytes, s, can_start, true, false, work)
                .is_some()
        })
    }

    fn regex_pass_with(
        &self,
        rx: &Regexes,
        text: &str,
        scratch: &mut PassScratch,
        out: &mut Vec<Region>,
        work: &Work,
    ) {
        let PassScratch {
            waiting,
            starts,
            can_start,
            dead,
        } = scratch;
        waiting.0.clear();
        let can_start = sized(can_start, rx.pattern_len);
        dead.clear();
        dead.resize(rx.runs.len(), 0);
        let dead = std::cell::Cell::from_mut(dead.as_mut_slice()).as_slice_of_cells();
        let bytes = text.as_bytes();
        let len = bytes.len();
        if rx.shapes.is_some() {
            work.charge(len);
            starts.find(bytes);
        } else {
            starts.at.clear();
            starts.emails.clear();
        }
        let (mut ai, mut ei) = (0, 0);
        // The next user-pattern start at or after the position it was asked
        // for; still right while it is not behind `pos`.
        let mut user: Option<usize> = None;
        let mut user_done = rx.user_scan.is_none();
        let mut pos = 0;
        while pos <= len {
            // SECURITY: the caller fails closed on a spent budget; stop
            // here rather than finish an unbounded amount of work.
            if work.spent() {
                return;
            }
            while starts.at.get(ai).is_some_and(|&a| a < pos) {
                ai += 1;
            }
            while starts.emails.get(ei).is_some_and(|&(_, at)| at <= pos) {
                ei += 1;
            }
            if !user_done && user.is_none_or(|u| u < pos) {
                let found = rx
                    .user_scan
                    .as_ref()
                    .and_then(|re| re.search(&Input::new(bytes).span(pos..len)));
                work.charge(found.map_or(len, |m| m.end()) - pos + 1);
                user = found.map(|m| m.start());
                user_done = user.is_none();
            }
            let email = starts.emails.get(ei).map(|&(run, _)| run.max(pos));
            let next = [starts.at.get(ai).copied(), email, user]
                .into_iter()
                .flatten()
                .min();
            if let Some(end) = waiting.due(next, out) {
                pos = end;
                continue;
            }
            let Some(s) = next else {
                break;
            };
            // A start that only the email list gives can start no other
            // built-in shape (the other list is a superset of their starts)
            // and no user pattern: try the email shape alone, without asking
            // the scan which shapes start here.
            let user_here = user == Some(s);
            let email_only = starts.at.get(ai) != Some(&s) && !user_here;
            let best = if email_only {
                self.best_of(
                    rx.email.iter().copied(),
                    bytes,
                    s,
                    |pid, stop| rx.exact_end(bytes, s, pid, stop, work),
                    work,
                )
            } else {
                can_start.clear();
                self.which_start(rx, bytes, s, can_start, email == Some(s), user_here, work);
                // Shapes a failed earlier start ruled out here.
                let live = can_start
                    .iter()
                    .filter(|pid| dead.get(pid.as_usize()).is_none_or(|d| s >= d.get()));
                self.best_of(
                    live,
                    bytes,
                    s,
                    |pid, stop| {
                        let end = rx.exact_end(bytes, s, pid, stop, work);
                        // A walk cut at a stop byte says nothing about
                        // starts past it.
                        if end.is_none()
                            && stop.is_none()
                            && let (Some(Some(run)), Some(d)) =
                                (rx.runs.get(pid.as_usize()), dead.get(pid.as_usize()))
                        {
                            d.set(run.end(bytes, s));
                        }
                        end
                    },
                    work,
                )
            };
            match best {
                Some(region) if region.start > s => {
                    waiting.0.push(region);
                    // No candidate passed at `s` itself (`best_of` ranks
                    // those first), so an email from here failed or was
                    // narrowed to where its check starts one from any
                    // start up to there: the run's next try is there.
                    if email == Some(s)
                        && let Some(entry) = starts.emails.get_mut(ei)
                    {
                        entry.0 =
                            validate::email_local_start(bytes, s, entry.1).max(next_char(bytes, s));
                    }
                    pos = next_char(bytes, s);
                }
                Some(region) => {
                    pos = region.end;
                    waiting.commit(region, out);
                }
                None => {
                    // An email start that fails fails for the whole local
                    // part before its `@` (the shape after `@` does not
                    // depend on where the local part starts): skip that `@`
                    // rather than retry at every byte of the run.
                    if email == Some(s) {
                        ei += 1;
                    }
                    pos = next_char(bytes, s);
                }
            }
        }
        while waiting.due(None, out).is_some() {}
    }

    /// The unanchored-regex pass that [`Redactor::regex_pass`] replaces,
    /// with the meta regexes answering every question: the reference it is
    /// tested against.
    #[cfg(test)]
    pub(crate) fn regex_pass_reference(&self, text: &str) -> Vec<Region> {
        let mut out = Vec::new();
        let Some(rx) = self.regexes.as_deref() else {
            return out;
        };
        let mut can_start = PatternSet::new(rx.pattern_len);
        let bytes = text.as_bytes();
        let len = bytes.len();
        let work = Work::unlimited();
        let mut waiting = Waiting::default();
        let mut pos = 0;
        while pos <= len {
            let next = rx
                .scan
                .search(&Input::new(bytes).span(pos..len))
                .map(|m| m.start());
            if let Some(end) = waiting.due(next, &mut out) {
                pos = end;
                continue;
            }
            let Some(s) = next else {
                break;
            };
            match self.best_at_meta(rx, bytes, s, &mut can_start, &work) {
                Some(region) if region.start > s => {
                    waiting.0.push(region);
                    pos = next_char(bytes, s);
                }
                Some(region) => {
                    pos = region.end;
                    waiting.commit(region, &mut out);
                }
                None => pos = next_char(bytes, s),
            }
        }
        while waiting.due(None, &mut out).is_some() {}
        out
    }

    /// [`Redactor::regex_pass`] alone, for tests.
    #[cfg(test)]
    pub(crate) fn regex_regions(&self, text: &str) -> Vec<Region> {
        let mut out = Vec::new();
        self.regex_pass(text, &mut out, &Work::unlimited());
        out
    }

    /// The best candidate starting at `s`: `(start, end, det)` after its
    /// check (which may narrow it), or `None` when no shape starts there or
    /// none passes.
    ///
    /// `email_here`: `s` is where the email list says an email may start;
    /// when it is not, no email can start at `s` that was not already tried
    /// (see `trigger.rs`), and the email shape is left out of the question.
    ///
    /// `user_here`: a user pattern may start at `s`. The pass knows the
    /// leftmost user-pattern start at or after its position, so anywhere
    /// else no user pattern matches and the built-in DFAs alone say which
    /// shapes start; here the meta scan, which also has the user patterns,
    /// does.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn best_at(
        &self,
        rx: &Regexes,
        bytes: &[u8],
        s: usize,
        can_start: &mut PatternSet,
        email_here: bool,
        user_here: bool,
        work: &Work,
    ) -> Option<Region> {
        can_start.clear();
        self.which_start(rx, bytes, s, can_start, email_here, user_here, work);
        self.best_of(
            can_start.iter(),
            bytes,
            s,
            |pid, stop| rx.exact_end(bytes, s, pid, stop, work),
            work,
        )
    }

    /// Fills `can_start` (empty on entry) with the shapes that can start at
    /// `s`; `email_here` and `user_here` as for [`Redactor::best_at`].
    #[allow(clippy::too_many_arguments)]
    fn which_start(
        &self,
        rx: &Regexes,
        bytes: &[u8],
        s: usize,
        can_start: &mut PatternSet,
        email_here: bool,
        user_here: bool,
        work: &Work,
    ) {
        let by_dfa = !user_here
            && rx
                .shapes
                .as_ref()
                .is_some_and(|d| d.which_start(bytes, s, email_here, can_start, work).is_ok());
        if !by_dfa {
            // SECURITY: a DFA search error (impossible for the ASCII pack,
            // which sets no quit bytes) must not read as "no shape starts
            // here": that would leave a secret in clear. Ask the meta scan
            // instead, from scratch.
            can_start.clear();
            work.charge(super::budget::SCAN_REACH);
            rx.meta_which_start(bytes, s, email_here, can_start, work);
        }
    }

    /// [`Redactor::best_at`] with the meta regexes alone, for the reference.
    #[cfg(test)]
    fn best_at_meta(
        &self,
        rx: &Regexes,
        bytes: &[u8],
        s: usize,
        can_start: &mut PatternSet,
        work: &Work,
    ) -> Option<Region> {
        can_start.clear();
        rx.meta_which_start(bytes, s, true, can_start, work);
        self.best_of(
            can_start.iter(),
            bytes,
            s,
            |pid, stop| rx.meta_exact_end(&bytes[..stop_at(bytes, s, stop)], s, pid, work),
            work,
        )
    }

    /// The best candidate at `s` among the shapes `pids`, whose anchored
    /// match ends come from `exact_end` (the shape, and a byte the match
    /// is read as ending before when it gets there).
    fn best_of(
        &self,
        pids: impl Iterator<Item = PatternID>,
        bytes: &[u8],
        s: usize,
        exact_end: impl Fn(PatternID, Option<u8>) -> Option<usize>,
        work: &Work,
    ) -> Option<Region> {
        let mut best: Option<(usize, usize, u32)> = None;
        for pid in pids {
            let Some(&super::ShapeRule {
                det,
                check,
                lead,
                trim,
            }) = self.checks.get(pid.as_usize())
            else {
                continue;
            };
            // The left edge, in code (`detectors::Lead`): before the walk,
            // which it saves where it fails.
            if !validate::lead_ok(lead, bytes, s) {
                continue;
            }
            // A secret's value in a query parameter ends at the next `&`
            // (`Check::Secret` cuts it there), so the walk ends there too:
            // in a run of glued parameters with no blank (`…&sig=<v>…&sig=
            // <v>…`, the value class holds `&`) a walk to the run's end
            // from every name was read again from the next name
            // (`scripts/adversarial-sweep.sh`: 130 steps a byte). No bytes
            // past the `&` can change what the check keeps: the value's
            // first `&` comes after its name (no name holds one), and a
            // value cut shorter than 12 bytes is no secret either way
            // (`validate::random_looking`).
            let stop =
                (check == Check::Secret && validate::query_parameter(bytes, s)).then_some(b'&');
            let Some(mut end) = exact_end(pid, stop) else {
                continue;
            };
            // An `_` that ended the match as its right edge is not part of it.
            if trim && end > s && bytes.get(end - 1) == Some(&b'_') {
                end -= 1;
            }
            // A check can only narrow a candidate, so one that is
            // already beaten by a candidate that kept its start is not
            // checked at all.
            if end == s
                || best
                    .is_some_and(|(bs, be, bd)| bs == s && (be > end || (be == end && bd <= det)))
            {
                continue;
            }
            let ctx = self.contexts.get(det as usize).and_then(Option::as_ref);
            // A context check reads at most its window before `s`.
            work.charge(end - s + ctx.map_or(0, |c| c.window()));
            let Some((cs, ce)) = validate::check(check, bytes, s, end, ctx, work) else {
                continue;
            };
            // SECURITY (idempotence): from the match's start, not the
            // checked span's: a check that keeps only a value (`api_key]
            // : <v>`, `token] = <v>`) must not read its secret's name
            // inside a token (`[REDACTED:api_key]`, or a policy rule named
            // `db_token`), or redacting the output again would find what
            // the input did not hold.
            if ce <= cs || overlaps_token(bytes, s.min(cs), ce) {
                continue;
            }
            // Leftmost first: a candidate that kept its start beats one
            // its check moved (that one is a candidate further on, see
            // [`Waiting`]); then the longest, then the detector's rank.
            if best.is_none_or(|(bs, be, bd)| (cs, Reverse(ce), det) < (bs, Reverse(be), bd)) {
                best = Some((cs, ce, det));
            }
        }
        best.map(|(start, end, det)| Region {
            start,
            end,
            det,
            drop: false,
        })
    }
}

/// Where a text read from `s` ends when `stop` ends it: the first
/// `stop` byte from `s` on, else the text's end.
fn stop_at(bytes: &[u8], s: usize, stop: Option<u8>) -> usize {
    let Some(b) = stop else {
        return bytes.len();
    };
    bytes
        .get(s..)
        .and_then(|rest| memchr::memchr(b, rest))
        .map_or(bytes.len(), |i| s + i)
}

impl Regexes {
    /// The end of shape `pid`'s leftmost-first match anchored at `s`: from
    /// the built-in DFA when `pid` is a built-in shape, else (user patterns)
    /// from the meta regex.
    /// With a `stop` byte, the text is read as ending at its first
    /// occurrence from `s` on.
    fn exact_end(
        &self,
        bytes: &[u8],
        s: usize,
        pid: PatternID,
        stop: Option<u8>,
        work: &Work,
    ) -> Option<usize> {
        if let Some(d) = &self.shapes
            && pid.as_usize() < d.pattern_len()
        {
            // SECURITY: a DFA search error (impossible for the ASCII pack)
            // must not read as "no match", which would leave the candidate
            // in clear: the meta regex answers instead.
            if let Ok(end) = d.exact_end(bytes, s, pid, stop, work) {
                return end;
            }
        }
        let to = stop_at(bytes, s, stop);
        work.charge(to - s.min(to));
        self.meta_exact_end(&bytes[..to], s, pid, work)
    }

    /// The meta regexes, built here on their first use when the compile
    /// step left them for later (built-in shapes only); `None` when they
    /// cannot be built, which the built-in pack's can (a test builds every
    /// built-in's): the callers then spend the work budget, failing closed.
    pub(super) fn meta(&self) -> Option<&Meta> {
        self.meta
            .get_or_init(|| {
                let p = self.meta_later.as_ref()?;
                super::compile::build_meta(&p.scans, &p.others, &p.exact).ok()
            })
            .as_ref()
    }

    /// [`Regexes::exact_end`] by the meta regex, for any shape.
    /// Charged as reading to the match's end, or to the end of the text
    /// when there is none (the meta regex does not say how far it read).
    pub(super) fn meta_exact_end(
        &self,
        bytes: &[u8],
        s: usize,
        pid: PatternID,
        work: &Work,
    ) -> Option<usize> {
        let Some(meta) = self.meta() else {
            // SECURITY: no answer is not "no match": stop the scan, and the
            // caller fails closed on the spent budget.
            work.exhaust();
            return None;
        };
        let input = Input::new(bytes)
            .span(s..bytes.len())
            .anchored(Anchored::Pattern(pid));
        let end = meta.exact.search(&input).map(|m| m.end());
        work.charge(end.unwrap_or(bytes.len()) - s + 1);
        end
    }

    /// Adds to `set` every shape (user patterns included) whose scan matches
    /// anchored at `s`, by the meta regexes.
    pub(super) fn meta_which_start(
        &self,
        bytes: &[u8],
        s: usize,
        email_here: bool,
        set: &mut PatternSet,
        work: &Work,
    ) {
        let Some(meta) = self.meta() else {
            // SECURITY: as in `meta_exact_end`, fail closed.
            work.exhaust();
            return;
        };
        let here = Input::new(bytes)
            .span(s..bytes.len())
            .anchored(Anchored::Yes);
        let scan = if email_here {
            &meta.scan_all
        } else {
            &meta.scan_others
        };
        scan.which_overlapping_matches(&here, set);
    }
}
