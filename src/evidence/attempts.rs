//! `attempts_not_sequential`: the one cross-record rule.
//!
//! Memory: one `HashMap` entry per distinct (`trace_id`, `request_id`) in a
//! file: the two ids as owned strings (their length plus 2 x 24 bytes), the
//! first line number (8), a `Vec<u64>` of attempt numbers (24 + 8 per
//! attempt), plus the map's own overhead (about 1.1 x the entry size): roughly
//! 120 bytes plus the ids' length per request. [`AttemptTracker::new`] takes a
//! cap on distinct requests; records of requests beyond it are not tracked
//! and counted in [`AttemptTracker::untracked`].

use std::collections::HashMap;

use super::{EvidenceFacts, EvidenceFinding};

/// A cross-record finding, with the line it is reported at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptFinding {
    /// The 1-based line number of the first record of the request.
    pub line: u64,
    /// The finding (`attempts_not_sequential`, path `attempt`).
    pub finding: EvidenceFinding,
}

struct Seen {
    first_line: u64,
    attempts: Vec<u64>,
}

/// Collects the attempt numbers of each (`trace_id`, `request_id`) across one
/// file and reports, at [`finish`](Self::finish), every request whose
/// attempts are not exactly 1..n (in any order).
pub struct AttemptTracker {
    max_requests: usize,
    seen: HashMap<(String, String), Seen>,
    untracked: u64,
}

impl AttemptTracker {
    /// A tracker that holds at most `max_requests` distinct requests.
    pub fn new(max_requests: usize) -> Self {
        Self {
            max_requests,
            seen: HashMap::new(),
            untracked: 0,
        }
    }

    /// Records one record's attempt.
    pub fn observe(&mut self, trace_id: &str, request_id: &str, attempt: u64, line: u64) {
        let key = (trace_id.to_owned(), request_id.to_owned());
        if let Some(seen) = self.seen.get_mut(&key) {
            seen.attempts.push(attempt);
        } else if self.seen.len() < self.max_requests {
            self.seen.insert(
                key,
                Seen {
                    first_line: line,
                    attempts: vec![attempt],
                },
            );
        } else {
            self.untracked += 1;
        }
    }

    /// Records one audited record; records without trace id, request id or
    /// attempt are skipped (the allowlist's `required` reports them).
    pub fn observe_facts(&mut self, facts: &EvidenceFacts<'_>, line: u64) {
        if let (Some(t), Some(r), Some(a)) = (&facts.trace_id, &facts.request_id, facts.attempt) {
            self.observe(t, r, a, line);
        }
    }

    /// Records not tracked because the cap on distinct requests was reached.
    pub fn untracked(&self) -> u64 {
        self.untracked
    }

    /// The findings, ordered by line.
    pub fn finish(self) -> Vec<AttemptFinding> {
        let mut found: Vec<AttemptFinding> = self
            .seen
            .into_values()
            .filter_map(|mut seen| {
                seen.attempts.sort_unstable();
                let sequential = seen
                    .attempts
                    .iter()
                    .zip(1u64..)
                    .all(|(&a, want)| a == want);
                (!sequential).then(|| AttemptFinding {
                    line: seen.first_line,
                    finding: EvidenceFinding::new(
                        "attempts_not_sequential",
                        "attempt".to_owned(),
                        "attempts of this trace and request are not numbered 1..n (gap, duplicate or not starting at 1)",
                    ),
                })
            })
            .collect();
        found.sort_by_key(|f| f.line);
        found
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn lines(t: AttemptTracker) -> Vec<u64> {
        t.finish().into_iter().map(|f| f.line).collect()
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
    fn cap_bounds_memory() {
        let mut t = AttemptTracker::new(1);
        t.observe("t", "a", 1, 1);
        t.observe("t", "b", 5, 2);
        t.observe("t", "a", 2, 3);
        assert_eq!(t.untracked(), 1);
        assert!(lines(t).is_empty());
    }
}
