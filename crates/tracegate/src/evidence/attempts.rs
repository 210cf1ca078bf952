//! `attempts_not_sequential`: the one cross-record rule, in memory bounded
//! by a horizon, not by the file.
//!
//! # Design: a sliding horizon of fingerprints
//!
//! Retries of one request are written close together: a gateway logs
//! attempt 2 seconds after attempt 1, not a day later. So the tracker keeps
//! a request only while it is *recent*: the records of one (`trace_id`,
//! `request_id`) are judged together as long as each follows the previous
//! one of its request by at most `horizon` observed records (records with a
//! trace id, request id and attempt). When a request has had no record for
//! `horizon` records it is judged and forgotten; a request still live at the
//! end of the file is judged then. Of the three ways the issue allowed
//! (fingerprints, a horizon, spilling to disk) this combines the first two:
//! spilling would be exact at any distance, but costs disk proportional to
//! the file and a sort of every finding before any can be printed, for
//! retries that in practice are never far apart.
//!
//! Per live request the tracker keeps 48 bytes: a 64-bit keyed fingerprint
//! of the two ids (never the ids), the first line, the count and highest
//! attempt, a bitmask of attempts 1..=64 and a keyed sum over attempts
//! above 64. With the queue of the last `horizon` fingerprints that is about
//! 72 bytes per record of horizon, whatever the file's size: 14 MiB at
//! [`DEFAULT_HORIZON`].
//!
//! # What it can miss, and what it reports past the horizon
//!
//! - Records of one request more than `horizon` records apart are judged as
//!   two requests. The later part is then reported when it is not 1..n on
//!   its own (a retry that arrives late, `{2}`, is reported), and the
//!   earlier part when it is not (a gap filled late, `{1, 3}` then `{2}`,
//!   is reported twice). A duplicate whose copies lie further apart than the
//!   horizon (`{1}` ... `{1}`) is **missed**.
//! - Two requests whose fingerprints collide are judged as one. The
//!   fingerprint is SipHash-1-3 under a key drawn at random per run, so an
//!   attacker who picks ids cannot aim for a collision; by chance, with at
//!   most `horizon + 1` requests live at once, a new request meets a
//!   colliding live one with probability at most `(horizon + 1) / 2^64` per
//!   request: below 1e-8 over a billion requests at the default horizon.
//!   A collision can hide a problem (`{1}` and `{2}` of two requests look
//!   like one complete request) or report one that is not there.
//! - Attempt numbers above 64 are compared through a keyed 64-bit sum, with
//!   the same 2^-64 chance of taking a duplicate among them for a
//!   complete run. An attempt above `u32::MAX` is reported as not
//!   sequential.
//!
//! # Order of findings
//!
//! A request is reported at the line of its first record. One judged at
//! the end of the file is reported, as before, after every per-line finding
//! of the file, in line order. One judged because it left the horizon is
//! reported when it leaves, that is after the findings of the line
//! `horizon` records after its last record: so a file of at most `horizon`
//! observed records gives exactly the findings, in exactly the order, of an
//! unbounded tracker.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

use super::{EvidenceFacts, EvidenceFinding};
use crate::finding::Rule;

/// The default horizon, in observed records.
pub const DEFAULT_HORIZON: usize = 200_000;

/// A cross-record finding, with the line it is reported at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptFinding {
    /// The 1-based line number of the first record of the request.
    pub line: u64,
    /// The finding (`attempts_not_sequential`, path `attempt`).
    pub finding: EvidenceFinding,
}

/// What one live request's attempts add up to (48 bytes with its key).
#[derive(Clone, Copy)]
struct State {
    first_line: u64,
    /// Attempts 1..=64 seen, bit `a - 1`.
    low: u64,
    /// Keyed sum over attempts above 64.
    high: u64,
    count: u32,
    max: u32,
    /// The observation number of the last record, modulo 2^32 (live
    /// observations are at most `horizon` apart, far less than 2^32).
    last_seq: u32,
    /// A zero, an attempt above `u32::MAX`, or a repeat among 1..=64.
    broken: bool,
}

impl State {
    fn add(&mut self, attempt: u64, high_hash: impl Fn(u64) -> u64) {
        self.count = self.count.saturating_add(1);
        match attempt {
            0 => self.broken = true,
            1..=64 => {
                let bit = 1u64 << (attempt - 1);
                if self.low & bit != 0 {
                    self.broken = true;
                }
                self.low |= bit;
            }
            _ => match u32::try_from(attempt) {
                Ok(_) => self.high = self.high.wrapping_add(high_hash(attempt)),
                Err(_) => self.broken = true,
            },
        }
        if let Ok(a) = u32::try_from(attempt) {
            self.max = self.max.max(a);
        }
    }
}

/// Hashes that are already uniformly random (fingerprints) are used as
/// they are.
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The keyed fingerprint of a request's ids, shared by the threads that
/// read records and the tracker that judges them (one random key per run).
#[derive(Clone, Default)]
pub struct Fingerprinter(RandomState);

// SECURITY: never print the key.
crate::io_text::debug_as!(Fingerprinter, "Fingerprinter");

impl Fingerprinter {
    /// A fingerprinter with a fresh random key.
    pub fn new() -> Self {
        Fingerprinter(RandomState::new())
    }

    /// The fingerprint of (`trace_id`, `request_id`): the pair is hashed as
    /// two length-delimited strings, so no two pairs are joined alike.
    pub fn fingerprint(&self, trace_id: &str, request_id: &str) -> u64 {
        self.fingerprint_bytes(trace_id.as_bytes(), request_id.as_bytes())
    }

    /// [`Fingerprinter::fingerprint`] of the ids' bytes (each ended by
    /// `0xff`, which no UTF-8 text holds).
    fn fingerprint_bytes(&self, trace_id: &[u8], request_id: &[u8]) -> u64 {
        // SECURITY: only this keyed fingerprint of the ids is kept.
        let mut h = self.0.build_hasher();
        h.write(trace_id);
        h.write_u8(0xff);
        h.write(request_id);
        h.write_u8(0xff);
        h.finish()
    }

    /// The fingerprint of an audited record that has a trace id, a request
    /// id and an attempt, with the attempt.
    pub fn of_facts(&self, facts: &EvidenceFacts<'_>) -> Option<(u64, u64)> {
        let (t, r) = facts.id_bytes();
        match (t, r, facts.attempt()) {
            (Some(t), Some(r), Some(a)) => Some((self.fingerprint_bytes(t, r), a)),
            _ => None,
        }
    }
}

/// Tracks the attempt numbers of each (`trace_id`, `request_id`) within a
/// horizon (see the module docs) and reports every request whose attempts
/// are not exactly 1..n (in any order).
pub struct AttemptTracker {
    horizon: usize,
    keys: Fingerprinter,
    live: HashMap<u64, State, BuildHasherDefault<Identity>>,
    /// Fingerprints of the last `horizon` observations, oldest first.
    queue: VecDeque<u64>,
    /// Observations so far.
    seq: u64,
}

// SECURITY: fingerprints and counts only; there are no ids to show.
crate::io_text::debug_as!(AttemptTracker, |a| "AttemptTracker" {
    horizon: a.horizon,
    live: a.live.len(),
    ..
});

fn finding(line: u64) -> AttemptFinding {
    AttemptFinding {
        line,
        finding: EvidenceFinding::new(
            Rule::AttemptsNotSequential,
            "attempt".to_owned(),
            "attempts of this trace and request are not numbered 1..n (gap, duplicate or not starting at 1)",
        ),
    }
}

impl AttemptTracker {
    /// A tracker that links the records of a request while each follows the
    /// previous one by at most `horizon` observed records (at least 1).
    pub fn new(horizon: usize) -> Self {
        Self::with_fingerprinter(horizon, Fingerprinter::new())
    }

    /// [`AttemptTracker::new`], taking fingerprints made by `keys` (see
    /// [`AttemptTracker::observe_fingerprint`]).
    pub fn with_fingerprinter(horizon: usize, keys: Fingerprinter) -> Self {
        let horizon = horizon.max(1);
        Self {
            horizon,
            keys,
            // Allocated as the file needs it, up to `horizon + 1` entries.
            live: HashMap::default(),
            queue: VecDeque::new(),
            seq: 0,
        }
    }

    /// The horizon in observed records.
    pub fn horizon(&self) -> usize {
        self.horizon
    }

    /// Requests live now (at most `horizon + 1`).
    pub fn live(&self) -> usize {
        self.live.len()
    }

    fn high_hash(keys: &Fingerprinter, attempt: u64) -> u64 {
        keys.0.hash_one(attempt)
    }

    /// Whether a request's attempts are exactly 1..n.
    fn sequential(&self, s: &State) -> bool {
        if s.broken || s.count != s.max || s.max == 0 {
            return false;
        }
        let low_want = if s.max >= 64 {
            u64::MAX
        } else {
            (1u64 << s.max) - 1
        };
        if s.low != low_want {
            return false;
        }
        let high_want = (65..=u64::from(s.max)).fold(0u64, |acc, a| {
            acc.wrapping_add(Self::high_hash(&self.keys, a))
        });
        s.high == high_want
    }

    /// Records one record's attempt. Returns the finding of a request that
    /// this record pushed out of the horizon, when that request's attempts
    /// were not 1..n.
    pub fn observe(
        &mut self,
        trace_id: &str,
        request_id: &str,
        attempt: u64,
        line: u64,
    ) -> Option<AttemptFinding> {
        let fp = self.keys.fingerprint(trace_id, request_id);
        self.observe_fingerprint(fp, attempt, line)
    }

    /// [`AttemptTracker::observe`] by a fingerprint from this tracker's
    /// [`Fingerprinter`].
    pub fn observe_fingerprint(
        &mut self,
        fp: u64,
        attempt: u64,
        line: u64,
    ) -> Option<AttemptFinding> {
        let seq = self.seq as u32;
        let keys = &self.keys;
        let state = self.live.entry(fp).or_insert(State {
            first_line: line,
            low: 0,
            high: 0,
            count: 0,
            max: 0,
            last_seq: seq,
            broken: false,
        });
        state.add(attempt, |a| Self::high_hash(keys, a));
        state.last_seq = seq;
        self.queue.push_back(fp);
        self.seq += 1;
        if self.queue.len() <= self.horizon {
            return None;
        }
        // The observation `horizon` records back leaves the window: if it
        // was its request's last, the request is judged now.
        let old_seq = self.seq.wrapping_sub(self.horizon as u64 + 1) as u32;
        let old = self.queue.pop_front()?;
        let last = self.live.get(&old)?;
        if last.last_seq != old_seq {
            return None;
        }
        let done = self.live.remove(&old)?;
        (!self.sequential(&done)).then(|| finding(done.first_line))
    }

    /// A hint, with no effect on what the tracker finds: look up `fp` and
    /// the observation that leaves the horizon `ahead` observations from
    /// now, so that their memory is on its way before
    /// [`AttemptTracker::observe_fingerprint`] needs it. The table is
    /// megabytes of random fingerprints: each observation met two or three
    /// cache misses one after the other; a caller that warms a few
    /// observations ahead lets them overlap.
    #[inline]
    pub fn warm(&self, fp: u64, ahead: usize) {
        std::hint::black_box(self.live.get(&fp).map(|s| s.count));
        if self.queue.len() >= self.horizon
            && let Some(old) = self.queue.get(ahead)
        {
            std::hint::black_box(self.live.get(old).map(|s| s.count));
        }
    }

    /// Records one audited record; records without trace id, request id or
    /// attempt are skipped (the allowlist's `required` reports them).
    pub fn observe_facts(
        &mut self,
        facts: &EvidenceFacts<'_>,
        line: u64,
    ) -> Option<AttemptFinding> {
        match (facts.trace_id(), facts.request_id(), facts.attempt()) {
            (Some(t), Some(r), Some(a)) => self.observe(t, r, a, line),
            _ => None,
        }
    }

    /// Judges every request still live; the findings, ordered by line.
    pub fn finish(self) -> Vec<AttemptFinding> {
        let mut found: Vec<AttemptFinding> = self
            .live
            .values()
            .filter(|s| !self.sequential(s))
            .map(|s| finding(s.first_line))
            .collect();
        found.sort_by_key(|f| f.line);
        found
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;

    /// The tracker before the horizon: every request kept, exactly.
    fn oracle(obs: &[(u8, u64)]) -> Vec<u64> {
        let mut seen: BTreeMap<u8, (u64, Vec<u64>)> = BTreeMap::new();
        for (i, &(req, a)) in obs.iter().enumerate() {
            seen.entry(req)
                .or_insert((i as u64 + 1, Vec::new()))
                .1
                .push(a);
        }
        let mut bad: Vec<u64> = seen
            .into_values()
            .filter_map(|(line, mut a)| {
                a.sort_unstable();
                (!a.iter().zip(1u64..).all(|(&x, w)| x == w)).then_some(line)
            })
            .collect();
        bad.sort_unstable();
        bad
    }

    /// Runs the tracker; findings in the order it reports them.
    fn run(horizon: usize, obs: &[(u8, u64)]) -> Vec<u64> {
        let mut t = AttemptTracker::new(horizon);
        let mut out = Vec::new();
        for (i, &(req, a)) in obs.iter().enumerate() {
            out.extend(
                t.observe("t", &format!("r{req}"), a, i as u64 + 1)
                    .map(|f| f.line),
            );
        }
        out.extend(t.finish().into_iter().map(|f| f.line));
        out
    }

    #[test]
    fn sequential_in_any_order_is_clean() {
        let mut t = AttemptTracker::new(100);
        t.observe("t1", "r1", 2, 1);
        t.observe("t1", "r1", 1, 2);
        t.observe("t1", "r2", 1, 3);
        t.observe("t2", "r1", 1, 4);
        assert!(t.finish().is_empty());
    }

    #[test]
    fn gaps_duplicates_and_zero_are_found() {
        let mut t = AttemptTracker::new(100);
        t.observe("t", "gap", 1, 1);
        t.observe("t", "gap", 3, 2);
        t.observe("t", "dup", 1, 3);
        t.observe("t", "dup", 1, 4);
        t.observe("t", "late", 2, 5);
        t.observe("t", "zero", 0, 6);
        t.observe("t", "fine", 1, 7);
        let found = t.finish();
        assert!(
            found
                .iter()
                .all(|f| f.finding.rule == "attempts_not_sequential")
        );
        assert_eq!(
            found.iter().map(|f| f.line).collect::<Vec<_>>(),
            vec![1, 3, 5, 6]
        );
    }

    #[test]
    fn ids_are_not_ambiguous_when_joined() {
        // ("ab", "c") and ("a", "bc") are two requests, each complete.
        let mut t = AttemptTracker::new(100);
        t.observe("ab", "c", 1, 1);
        t.observe("a", "bc", 1, 2);
        assert!(t.finish().is_empty());
    }

    #[test]
    fn attempts_above_64_are_compared_exactly() {
        let complete: Vec<u64> = (1..=300).rev().collect();
        let mut t = AttemptTracker::new(1000);
        for (i, &a) in complete.iter().enumerate() {
            t.observe("t", "r", a, i as u64 + 1);
        }
        assert!(t.finish().is_empty());
        // 200 twice and no 201: count and max still agree.
        let mut t = AttemptTracker::new(1000);
        for (i, a) in (1..=300)
            .map(|a| if a == 201 { 200 } else { a })
            .enumerate()
        {
            t.observe("t", "r", a, i as u64 + 1);
        }
        assert_eq!(t.finish().len(), 1);
        let mut t = AttemptTracker::new(10);
        t.observe("t", "r", 1, 1);
        t.observe("t", "r", u64::from(u32::MAX) + 2, 2);
        assert_eq!(t.finish().len(), 1);
    }

    #[test]
    fn the_horizon_is_exact() {
        // Request 0 at line 1 and again `h` observations later: linked.
        let h = 5;
        let mut obs = vec![(0u8, 1u64)];
        obs.extend((1..h).map(|k| (k as u8, 1)));
        obs.push((0, 2));
        assert_eq!(obs.len(), h + 1);
        assert!(run(h, &obs).is_empty());
        // One more record in between: attempt 2 stands alone, reported at
        // its own line, when it is judged at the end.
        let mut obs = vec![(0u8, 1u64)];
        obs.extend((1..=h).map(|k| (k as u8, 1)));
        obs.push((0, 2));
        assert_eq!(run(h, &obs), vec![h as u64 + 2]);
    }

    #[test]
    fn past_the_horizon_a_far_duplicate_is_missed_and_findings_stream() {
        let h = 3;
        // {1} ... {1} four records apart: missed (documented).
        let obs = [(0u8, 1u64), (1, 1), (2, 1), (3, 1), (0, 1)];
        assert!(run(h, &obs).is_empty());
        assert_eq!(oracle(&obs), vec![1]);
        // A gap {1, 3} leaves the horizon and is reported while the file
        // goes on, before the end-of-file finding of a later request.
        let obs = [(0u8, 1u64), (0, 3), (1, 1), (2, 1), (3, 1), (4, 2)];
        let mut t = AttemptTracker::new(h);
        let mut streamed = Vec::new();
        for (i, &(req, a)) in obs.iter().enumerate() {
            if let Some(f) = t.observe("t", &format!("r{req}"), a, i as u64 + 1) {
                streamed.push((i + 1, f.line));
            }
        }
        assert_eq!(streamed, vec![(5, 1)]);
        assert_eq!(
            t.finish().iter().map(|f| f.line).collect::<Vec<_>>(),
            vec![6]
        );
    }

    #[test]
    fn memory_is_bounded_by_the_horizon() {
        let mut t = AttemptTracker::new(1000);
        for i in 0..50_000u64 {
            t.observe("t", &i.to_string(), 1, i + 1);
            assert!(t.live() <= 1001);
            assert!(t.queue.len() <= 1000);
        }
        assert_eq!(t.live(), 1000);
    }

    proptest! {
        /// Within the horizon the tracker is the unbounded one: the same
        /// findings in the same order.
        #[test]
        fn within_the_horizon_findings_equal_the_unbounded_tracker(
            obs in prop::collection::vec((0u8..12, 0u64..6), 0..60),
        ) {
            prop_assert_eq!(run(obs.len().max(1), &obs), oracle(&obs));
        }

        /// Past it: every request the tracker reports is one the unbounded
        /// tracker reports, or one split by the horizon.
        #[test]
        fn past_the_horizon_findings_come_only_from_split_requests(
            obs in prop::collection::vec((0u8..6, 1u64..4), 0..60),
            h in 1usize..8,
        ) {
            let truth = oracle(&obs);
            for line in run(h, &obs) {
                let req = obs[line as usize - 1].0;
                let lines: Vec<usize> = obs.iter().enumerate()
                    .filter(|(_, o)| o.0 == req).map(|(i, _)| i).collect();
                let split = lines.windows(2).any(|w| w[1] - w[0] > h);
                prop_assert!(truth.contains(&line) || split, "line {line}");
            }
        }

        /// Warming (any fingerprints, any distance ahead) changes nothing
        /// the tracker reports.
        #[test]
        fn warming_changes_no_finding(
            obs in prop::collection::vec((0u8..6, 0u64..4), 0..60),
            warms in prop::collection::vec((0u8..8, 0usize..12), 0..60),
            h in 1usize..8,
        ) {
            let keys = Fingerprinter::new();
            let mut t = AttemptTracker::with_fingerprinter(h, keys.clone());
            let mut out = Vec::new();
            for (i, &(req, a)) in obs.iter().enumerate() {
                if let Some(&(w, ahead)) = warms.get(i) {
                    t.warm(keys.fingerprint("t", &format!("r{w}")), ahead);
                }
                out.extend(t.observe("t", &format!("r{req}"), a, i as u64 + 1).map(|f| f.line));
            }
            out.extend(t.finish().into_iter().map(|f| f.line));
            prop_assert_eq!(out, run(h, &obs));
        }
    }
}
