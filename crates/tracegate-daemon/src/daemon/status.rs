//! `GET /v1/status`: the policy in force, reloads, windows, audit health
//! and drop counters, as JSON.
//!
//! SECURITY: policy identifiers (sink names, window ids, digests, paths of
//! the policy), a window's requester and reason as the policy writes them,
//! and numbers only; never a record value, a keyword list or a key.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{Value, json};

use super::metrics::ld;
use super::pipeline::Pipeline;
use crate::audit::format_ts;
use crate::sink::counters::DropReason;
use crate::window::{CloseCause, WindowState, latest, state_with_floor};

/// The status document.
pub fn status_json(p: &Pipeline) -> Value {
    let active = p.snapshot();
    let now = p.clock().utc();
    let mut open: HashMap<String, String> = HashMap::new();
    let mut audit_sinks = Vec::new();
    let mut audit_failures = 0;
    let mut floor = None;
    // Windows the captures hold closed for good (by the log, by this
    // process, or barred by a refused reload), by sink.
    let mut closed: HashMap<String, HashMap<String, CloseCause>> = HashMap::new();
    // What each open window's gate delivered at full level so far.
    let mut spent: HashMap<String, crate::window::budget::Units> = HashMap::new();
    for s in &active.sinks {
        if let Some(slot) = &s.capture
            && let Ok(c) = slot.lock()
        {
            floor = floor.max(c.capture.time_floor());
            closed.insert(s.name.clone(), c.capture.closed_windows().clone());
            if let Some(w) = c.capture.open_window() {
                open.insert(w.to_string(), s.name.clone());
                if let Some(u) = c.capture.open_spent() {
                    spent.insert(w.to_string(), u);
                }
            }
            audit_failures += c.capture.stats().audit_failures;
            audit_sinks.push(json!({"sink": s.name, "ready": c.capture.audit_ready()}));
        }
    }
    let none = HashMap::new();
    let windows: Vec<Value> = active
        .policy
        .windows()
        .iter()
        .map(|w| {
            // SECURITY: a window the capture barred is shown closed, with
            // its cause, never `active` while nothing goes out full.
            let enabled = open.contains_key(&w.id);
            let state = if enabled {
                WindowState::Active
            } else {
                state_with_floor(w, now, floor, closed.get(&w.sink).unwrap_or(&none))
            };
            let left = match state {
                WindowState::Closed(_) | WindowState::Expired => 0,
                _ => w.end.duration_since(latest(now, floor)).as_secs().max(0),
            };
            let cause = match state {
                WindowState::Closed(c) => Some(c.as_str()),
                _ => None,
            };
            json!({
                "id": w.id,
                "sink": w.sink,
                "state": if enabled { "enabled" } else { state.as_str() },
                "closed_cause": cause,
                "start": format_ts(w.start),
                "end": format_ts(w.end),
                "seconds_left": left,
                "requested_by": w.requested_by,
                "reason": w.reason,
                "max_records": w.max_records,
                "max_bytes": w.max_bytes,
                "spent": spent.get(&w.id).map(|u| json!({"records": u.records, "bytes": u.bytes})),
            })
        })
        .collect();
    let totals: Vec<(String, Totals)> = active
        .sinks
        .iter()
        .map(|s| (s.name.clone(), Totals::of(&s.counters)))
        .collect();
    let recent = p
        .recent
        .lock()
        .map(|mut r| r.sample(p.clock().monotonic(), &totals))
        .unwrap_or_default();
    let sinks: Vec<Value> = active
        .sinks
        .iter()
        .zip(&totals)
        .map(|(s, (_, t))| {
            let c = &s.counters;
            let error = c.health();
            let (secs, last) = recent.get(&s.name).copied().unwrap_or_default();
            json!({
                "totals": t,
                "last_minute": {"seconds": secs, "passed": last.passed, "stripped": last.stripped, "dropped": last.dropped},
                "name": s.name,
                "full_allowed": s.capture.is_some(),
                // Whether full-level content for it is sealed to `seal_to`
                // recipients (never the keys themselves).
                "sealed": active.policy.sink(&s.name).is_some_and(|p| !p.seal_to.is_empty()),
                "healthy": error.is_none(),
                "error": error,
                "records_in": ld(&c.records_in),
                "records_out": {"standard": ld(&c.out_standard), "full": ld(&c.out_full)},
                "queued": ld(&c.queued),
                "queued_bytes": ld(&c.queued_bytes),
                "unflushed": ld(&c.unflushed),
                "spooled": ld(&c.spooled),
                "spooled_bytes": ld(&c.spooled_bytes),
                "recovered": ld(&c.recovered),
                "export_retries": ld(&c.retries),
                "dropped": DropReason::ALL.map(|r| (r.as_str().to_string(), c.dropped(r).into()))
                    .into_iter().collect::<serde_json::Map<_, _>>(),
                "items_dropped": c.items_dropped().into_iter().map(|((signal, why, rule), n)| {
                    json!({"signal": signal.as_str(), "reason": why.as_str(), "rule": (!rule.is_empty()).then_some(rule), "count": n})
                }).collect::<Vec<_>>(),
                "fields_stripped": c.fields_stripped().into_iter().map(|((signal, rule), n)| {
                    json!({"signal": signal.as_str(), "rule": rule, "count": n})
                }).collect::<Vec<_>>(),
            })
        })
        .collect();
    // The refusal count first, then its cause: `refuse` sets the cause
    // and then counts (Release), so a reader that sees the count (Acquire)
    // also sees the cause. Read the other way round, a status could say
    // "1 refused" with no error while a refusal was being recorded.
    let refused = p
        .metrics
        .reloads_refused
        .load(std::sync::atomic::Ordering::Acquire);
    let last_error = p
        .last_reload_error
        .lock()
        .ok()
        .and_then(|e| e.clone())
        .map(|e| json!({"at": format_ts(e.at), "cause": e.cause}));
    let m = &p.metrics;
    let f = p.fleet_state();
    let fleet = json!({
        "replica_id": f.replica_id,
        "replicas": f.replicas,
        "budget_store": f.budget_store,
        "store": match (&f.budget_store, f.store_fault) {
            (None, _) => "none",
            (Some(_), None) => "up",
            (Some(_), Some(_)) => "down",
        },
        "store_fault": f.store_fault.map(|x| x.as_str()),
        "leases": f.leases,
        "store_failures": f.store_failures,
    });
    // SECURITY: a sink name, fixed words, a rule and a finding's path.
    let last_drop = p.last_drop.lock().ok().and_then(|d| d.clone()).map(|d| {
        json!({
            "at": format_ts(d.at),
            "sink": d.sink,
            "signal": d.signal.as_str(),
            "reason": d.reason.as_str(),
            "rule": (!d.rule.is_empty()).then_some(d.rule),
            "path": d.path,
            "items": d.items,
        })
    });
    json!({
        "now": format_ts(now),
        "fleet": fleet,
        "last_drop": last_drop,
        "policy": {
            "revision": active.revision,
            "sha256": active.policy.sha256(),
            "source": active.policy.source().display().to_string(),
            "loaded_at": format_ts(active.loaded_at),
            // Per sink and record format, the most free bits one standard
            // record can carry (`null`: unbounded); docs/policy.md.
            "free_bits": active.policy.free_bits(),
        },
        "reloads": {"ok": ld(&m.reloads_ok), "refused": refused},
        "last_reload_error": last_error,
        "windows": windows,
        "audit": {
            "ready": p.not_ready().is_none(),
            "failures": audit_failures,
            "sinks": audit_sinks,
        },
        "records": {"received": ld(&m.records_in), "malformed": ld(&m.malformed)},
        "sinks": sinks,
    })
}

/// A sink's counters since start, as the status page sums them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Totals {
    /// Records delivered (standard and full).
    pub passed: u64,
    /// Fields stripped from delivered records.
    pub stripped: u64,
    /// Records not delivered, every reason.
    pub dropped: u64,
}

impl Totals {
    fn of(c: &crate::sink::counters::SinkCounters) -> Totals {
        Totals {
            passed: ld(&c.out_standard).saturating_add(ld(&c.out_full)),
            stripped: c
                .fields_stripped()
                .iter()
                .fold(0u64, |a, (_, n)| a.saturating_add(*n)),
            dropped: DropReason::ALL
                .iter()
                .fold(0u64, |a, w| a.saturating_add(c.dropped(*w))),
        }
    }

    fn since(self, then: Totals) -> Totals {
        Totals {
            passed: self.passed.saturating_sub(then.passed),
            stripped: self.stripped.saturating_sub(then.stripped),
            dropped: self.dropped.saturating_sub(then.dropped),
        }
    }
}

/// How far back "the last minute" looks.
const MINUTE: Duration = Duration::from_secs(60);
/// At most one sample per this long is kept (bounds the ring at ~62).
const SAMPLE_EVERY: Duration = Duration::from_secs(1);

/// The per-sink totals as sampled when the status was asked for, for the
/// last minute's counts: the difference between now and the oldest sample
/// no older than a minute. Counters are not timed as they count, so a
/// status asked for rarely covers less than a minute; it says how many
/// seconds it covers (`last_minute.seconds`).
#[derive(Debug, Default)]
pub struct Recent {
    samples: VecDeque<(Duration, HashMap<String, Totals>)>,
}

impl Recent {
    /// Record `now`'s totals; per sink, how many seconds back the oldest
    /// kept sample is and what was counted since.
    pub fn sample(
        &mut self,
        now: Duration,
        totals: &[(String, Totals)],
    ) -> HashMap<String, (u64, Totals)> {
        // Drop samples older than a minute, keeping the one just inside.
        while let Some((t, _)) = self.samples.front() {
            if now.saturating_sub(*t) > MINUTE {
                self.samples.pop_front();
            } else {
                break;
            }
        }
        let current: HashMap<String, Totals> = totals.iter().cloned().collect();
        let out = match self.samples.front() {
            Some((t, then)) => {
                let secs = now.saturating_sub(*t).as_secs();
                current
                    .iter()
                    .map(|(k, v)| {
                        // A sink new since the sample counts from zero.
                        let base = then.get(k).copied().unwrap_or_default();
                        (k.clone(), (secs, v.since(base)))
                    })
                    .collect()
            }
            None => current
                .keys()
                .map(|k| (k.clone(), (0, Totals::default())))
                .collect(),
        };
        let due = self
            .samples
            .back()
            .is_none_or(|(t, _)| now.saturating_sub(*t) >= SAMPLE_EVERY);
        if due {
            self.samples.push_back((now, current));
        }
        out
    }
}

/// The shared ring of a pipeline.
pub type RecentSlot = Mutex<Recent>;

#[cfg(test)]
mod tests {
    use super::*;

    fn t(p: u64, s: u64, d: u64) -> Totals {
        Totals {
            passed: p,
            stripped: s,
            dropped: d,
        }
    }

    /// `sealed` is true exactly for a sink with `seal_to` recipients, and
    /// the status never carries the recipient itself.
    #[tokio::test]
    async fn status_says_which_sinks_seal_their_full_records() {
        let dir = tempfile::tempdir().unwrap();
        let recipient = tracegate::seal::Identity::generate()
            .unwrap()
            .recipient()
            .encode();
        std::fs::write(
            dir.path().join("policy.toml"),
            format!(
                "[audit]\npath = \"a.jsonl\"\n\
                 [[sink]]\nname = \"plain\"\noutput = \"file:p.jsonl\"\n\
                 [[sink]]\nname = \"cap\"\nfull_allowed = true\noutput = \"file:c.jsonl\"\n\
                 seal_to = [\"{recipient}\"]\n"
            ),
        )
        .unwrap();
        let policy = std::sync::Arc::new(crate::policy::Policy::load(dir.path()).unwrap());
        let clock = std::sync::Arc::new(crate::window::clock::ManualClock::new(
            "2030-01-01T10:30:00Z".parse().unwrap(),
        ));
        let p = Pipeline::start(policy, dir.path().to_path_buf(), clock);
        let status = status_json(&p);
        let sealed: Vec<(&str, bool)> = status["sinks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s["name"].as_str().unwrap(), s["sealed"].as_bool().unwrap()))
            .collect();
        assert_eq!(sealed, [("plain", false), ("cap", true)]);
        assert!(!status.to_string().contains(&recipient));
    }

    #[test]
    fn last_minute_counts_since_the_oldest_sample_within_a_minute() {
        let mut r = Recent::default();
        let at = Duration::from_secs;
        let first = r.sample(at(100), &[("a".into(), t(10, 1, 0))]);
        assert_eq!(first["a"], (0, Totals::default()));
        r.sample(at(130), &[("a".into(), t(15, 1, 2))]);
        let now = r.sample(at(150), &[("a".into(), t(20, 3, 2))]);
        assert_eq!(now["a"], (50, t(10, 2, 2)));
        // Past a minute, the sample at 100 goes: counted from 130.
        let later = r.sample(at(175), &[("a".into(), t(21, 3, 2))]);
        assert_eq!(later["a"], (45, t(6, 2, 0)));
        // The ring stays bounded however often it is asked.
        for i in 0..10_000u64 {
            r.sample(Duration::from_millis(175_000 + i * 10), &[]);
        }
        assert!(r.samples.len() <= 62, "{}", r.samples.len());
    }
}
