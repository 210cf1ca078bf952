//! `GET /v1/status`: the policy in force, reloads, windows, audit health
//! and drop counters, as JSON.
//!
//! SECURITY: policy identifiers (sink names, window ids, digests, paths of
//! the policy) and numbers only; never a record value.

use std::collections::HashMap;

use serde_json::{Value, json};

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
    for s in &active.sinks {
        if let Some(slot) = &s.capture
            && let Ok(c) = slot.lock()
        {
            floor = floor.max(c.capture.time_floor());
            closed.insert(s.name.clone(), c.capture.closed_windows().clone());
            if let Some(w) = c.capture.open_window() {
                open.insert(w.to_string(), s.name.clone());
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
            let state = if open.contains_key(&w.id) {
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
            let state = if open.contains_key(&w.id) {
                "enabled"
            } else {
                state.as_str()
            };
            json!({
                "id": w.id,
                "sink": w.sink,
                "state": state,
                "closed_cause": cause,
                "start": format_ts(w.start),
                "end": format_ts(w.end),
                "seconds_left": left,
            })
        })
        .collect();
    let sinks: Vec<Value> = active
        .sinks
        .iter()
        .map(|s| {
            let c = &s.counters;
            let ld =
                |a: &std::sync::atomic::AtomicU64| a.load(std::sync::atomic::Ordering::Relaxed);
            let error = c.health();
            json!({
                "name": s.name,
                "full_allowed": s.capture.is_some(),
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
                "dropped": {
                    "malformed": c.dropped(DropReason::Malformed),
                    "violation": c.dropped(DropReason::Violation),
                    "queue_full": c.dropped(DropReason::QueueFull),
                    "sink_error": c.dropped(DropReason::SinkError),
                },
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
    let ld = |a: &std::sync::atomic::AtomicU64| a.load(std::sync::atomic::Ordering::Relaxed);
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
