//! The per-record auditor rules (see the table in the module docs).

use std::collections::HashMap;

use super::model::{Event, Interval, Record};
use super::{EvidenceFinding, EvidenceShapeError, SCHEMA_VERSION};

/// Final boundary events: a completed record must hold one.
const FINAL_EVENTS: &[&str] = &[
    "final_output_token",
    "final_response_byte",
    "final_response_flush",
    "stream_complete",
    "upstream_completion",
];

/// `sync_status` values that mean "not synchronized" (compared ASCII
/// case-insensitively), besides absent and empty.
const UNSYNCED: &[&str] = &[
    "unknown",
    "unsynchronized",
    "unsynced",
    "not_synchronized",
    "none",
];

/// A UTC timestamp in nanoseconds since the epoch, with the resolution its
/// text carried (1 ms for `.120Z`, 1 s for no fraction).
#[derive(Clone, Copy)]
struct Utc {
    ns: i128,
    resolution_ns: i128,
}

/// The clocks one event carries.
struct Timing {
    mono: Option<u64>,
    utc: Option<Utc>,
}

/// Runs every per-record rule. Returns, per derived interval, its computed
/// duration in ms when it reproduced and drew no finding.
///
/// Timestamps are parsed first, so a shape error leaves `out` untouched.
pub(crate) fn run(
    rec: &Record<'_>,
    out: &mut Vec<EvidenceFinding>,
) -> Result<Vec<Option<f64>>, EvidenceShapeError> {
    let timings = parse_timings(&rec.events)?;
    check_schema_version(rec, out);
    let index = check_duplicates(&rec.events, out);
    check_order(&rec.events, &timings, out);
    let ctx = Ctx {
        events: &rec.events,
        timings: &timings,
        index: &index,
        monotonic_only: rec.clock_source.as_deref().is_some_and(is_monotonic_only),
        synced: rec.sync_status.as_deref().is_some_and(is_synced),
    };
    let reproduced = rec
        .derived_intervals
        .iter()
        .enumerate()
        .map(|(i, iv)| ctx.check_interval(i, iv, out))
        .collect();
    check_status(rec, out);
    Ok(reproduced)
}

fn parse_timings(events: &[Event<'_>]) -> Result<Vec<Timing>, EvidenceShapeError> {
    events
        .iter()
        .enumerate()
        .map(|(j, ev)| {
            let utc = match ev.timestamp_utc.as_deref() {
                None => None,
                Some(text) => Some(parse_utc(text).ok_or_else(|| EvidenceShapeError {
                    path: format!("events[{j}].timestamp_utc"),
                    message: "timestamp is not an rfc 3339 timestamp with an offset",
                })?),
            };
            Ok(Timing {
                mono: ev.monotonic_ns,
                utc,
            })
        })
        .collect()
}

fn parse_utc(text: &str) -> Option<Utc> {
    let ts: jiff::Timestamp = text.parse().ok()?;
    Some(Utc {
        ns: ts.as_nanosecond(),
        resolution_ns: resolution_ns(text),
    })
}

/// The resolution implied by the fractional digits after the seconds.
fn resolution_ns(text: &str) -> i128 {
    let after_t = text.find(['T', 't', ' ']).map_or(text, |p| &text[p..]);
    let digits = after_t.find(['.', ',']).map_or(0, |p| {
        after_t[p + 1..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count()
    });
    let mut res: i128 = 1_000_000_000;
    for _ in 0..digits.min(9) {
        res /= 10;
    }
    res
}

fn unit_ns(unit: &str) -> Option<i128> {
    match unit {
        "ns" => Some(1),
        "us" => Some(1_000),
        "ms" => Some(1_000_000),
        "s" => Some(1_000_000_000),
        _ => None,
    }
}

fn words(name: &str) -> impl Iterator<Item = &str> {
    name.split(['_', '-', '.'])
}

fn says_token(name: &str) -> bool {
    words(name).any(|w| {
        w.eq_ignore_ascii_case("token")
            || w.eq_ignore_ascii_case("tokens")
            || w.eq_ignore_ascii_case("ttft")
    })
}

fn says_byte(name: &str) -> bool {
    words(name).any(|w| {
        w.eq_ignore_ascii_case("byte")
            || w.eq_ignore_ascii_case("bytes")
            || w.eq_ignore_ascii_case("ttfb")
    })
}

fn is_first_response(name: &str) -> bool {
    name.starts_with("first_") && words(name).any(|w| matches!(w, "token" | "byte" | "response"))
}

/// `clock_source` claims monotonic clocks and no UTC or wall correlation.
fn is_monotonic_only(clock_source: &str) -> bool {
    let lower = clock_source.to_ascii_lowercase();
    lower.contains("monotonic") && !lower.contains("utc") && !lower.contains("wall")
}

fn is_synced(sync_status: &str) -> bool {
    let s = sync_status.trim();
    !s.is_empty() && !UNSYNCED.iter().any(|u| s.eq_ignore_ascii_case(u))
}

fn check_schema_version(rec: &Record<'_>, out: &mut Vec<EvidenceFinding>) {
    match rec.schema_version.as_deref() {
        None => out.push(EvidenceFinding::new(
            "missing_schema_version",
            "schema_version".to_owned(),
            "record has no schema version",
        )),
        Some(SCHEMA_VERSION) => {}
        Some(_) => out.push(EvidenceFinding::new(
            "unknown_schema_version",
            "schema_version".to_owned(),
            "schema version is not latency-evidence.v1; checked as v1",
        )),
    }
}

/// Reports every repeated `event_name` (at its later position) and returns
/// the index of each name's first occurrence, which intervals resolve to.
///
/// Decision: a duplicate is the same name regardless of service, because an
/// interval names its events by `event_name` alone; a second event of that
/// name makes every reference to it ambiguous.
fn check_duplicates<'r>(
    events: &'r [Event<'_>],
    out: &mut Vec<EvidenceFinding>,
) -> HashMap<&'r str, usize> {
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(events.len());
    for (j, ev) in events.iter().enumerate() {
        if index.contains_key(ev.event_name.as_ref()) {
            out.push(EvidenceFinding::new(
                "duplicate_event",
                format!("events[{j}]"),
                "event name occurs earlier in this attempt's events",
            ));
        } else {
            index.insert(ev.event_name.as_ref(), j);
        }
    }
    index
}

fn same_observer(a: &Event<'_>, b: &Event<'_>) -> bool {
    a.service.is_some() && a.service == b.service
}

/// `later` is certainly earlier than `earlier` by UTC, allowing for the
/// coarser resolution of the two timestamps.
fn utc_before(later: Utc, earlier: Utc) -> bool {
    earlier.ns - later.ns >= later.resolution_ns.max(earlier.resolution_ns)
}

fn check_order(events: &[Event<'_>], timings: &[Timing], out: &mut Vec<EvidenceFinding>) {
    let mut last_of_service: HashMap<&str, usize> = HashMap::new();
    for (j, ev) in events.iter().enumerate() {
        let mut bad = false;
        if let Some(svc) = ev.service.as_deref() {
            if let Some(&p) = last_of_service.get(svc) {
                bad |= match (
                    timings[p].mono,
                    timings[j].mono,
                    timings[p].utc,
                    timings[j].utc,
                ) {
                    (Some(a), Some(b), _, _) => b < a,
                    (_, _, Some(a), Some(b)) => utc_before(b, a),
                    _ => false,
                };
            }
            last_of_service.insert(svc, j);
        }
        if j > 0
            && !same_observer(&events[j - 1], ev)
            && let (Some(a), Some(b)) = (timings[j - 1].utc, timings[j].utc)
        {
            bad |= utc_before(b, a);
        }
        if bad {
            out.push(EvidenceFinding::new(
                "events_out_of_order",
                format!("events[{j}]"),
                "event is earlier than an event listed before it (same service by monotonic clock, across services by utc)",
            ));
        }
    }
}

struct Ctx<'c, 'r> {
    events: &'c [Event<'r>],
    timings: &'c [Timing],
    index: &'c HashMap<&'c str, usize>,
    monotonic_only: bool,
    synced: bool,
}

/// Where a computed duration came from.
#[derive(PartialEq)]
enum Clock {
    Monotonic,
    Utc,
}

impl Ctx<'_, '_> {
    fn check_interval(
        &self,
        i: usize,
        iv: &Interval<'_>,
        out: &mut Vec<EvidenceFinding>,
    ) -> Option<f64> {
        let before = out.len();
        let path = || format!("derived_intervals[{i}]");
        let push = |out: &mut Vec<EvidenceFinding>, rule, message| {
            out.push(EvidenceFinding::new(rule, path(), message));
        };

        let name = iv.name.as_ref();
        let ends = [iv.start_event.as_ref(), iv.end_event.as_ref()];
        let token_name = says_token(name) && !says_byte(name);
        let byte_name = says_byte(name) && !says_token(name);
        if (token_name && ends.iter().any(|e| says_byte(e) && !says_token(e)))
            || (byte_name && ends.iter().any(|e| says_token(e) && !says_byte(e)))
        {
            push(
                out,
                "token_byte_mismatch",
                "interval named for tokens starts or ends at a byte event, or the reverse",
            );
        }

        let unit = iv.duration_unit.as_deref().and_then(unit_ns);
        if unit.is_none() {
            push(
                out,
                "unknown_duration_unit",
                "duration unit is absent or not one of ns, us, ms, s",
            );
        }

        let start = self.index.get(ends[0]).copied();
        let end = self.index.get(ends[1]).copied();
        if start.is_none() {
            push(out, "missing_event", "start event names no event in events");
        }
        if end.is_none() {
            push(out, "missing_event", "end event names no event in events");
        }
        let (Some(s), Some(e)) = (start, end) else {
            if iv.duration < 0.0 {
                push(out, "negative_duration", "stated duration is negative");
            }
            return None;
        };

        let (se, ee) = (&self.events[s], &self.events[e]);
        let (st, et) = (&self.timings[s], &self.timings[e]);
        let same = same_observer(se, ee);
        let mono_diff = match (st.mono, et.mono) {
            (Some(a), Some(b)) => Some(i128::from(b) - i128::from(a)),
            _ => None,
        };
        // Does the stated duration match `computed` within one unit plus `slack`?
        let matches = |computed: i128, slack: i128| {
            unit.is_some_and(|u| {
                let diff = iv.duration * u as f64 - computed as f64;
                diff.abs() <= (u + slack) as f64
            })
        };

        if !same && self.monotonic_only {
            push(
                out,
                "cross_clock_monotonic",
                "interval spans two services but the clock source is monotonic only: two clock domains",
            );
            if iv.duration < 0.0 {
                push(out, "negative_duration", "stated duration is negative");
            }
            return None;
        }

        let computed = match (same, mono_diff, st.utc, et.utc) {
            (true, Some(d), _, _) => Some((d, 0, Clock::Monotonic)),
            (_, _, Some(a), Some(b)) => Some((
                b.ns - a.ns,
                a.resolution_ns.max(b.resolution_ns),
                Clock::Utc,
            )),
            _ => None,
        };
        let Some((computed, slack, clock)) = computed else {
            if !same && mono_diff.is_some_and(|d| matches(d, 0)) {
                push(
                    out,
                    "cross_clock_monotonic",
                    "duration reproduces only by subtracting monotonic clocks of two services",
                );
            } else {
                push(
                    out,
                    "duration_mismatch",
                    "derived duration cannot be reproduced: its events share no usable clock",
                );
            }
            if iv.duration < 0.0 {
                push(out, "negative_duration", "stated duration is negative");
            }
            return None;
        };

        if iv.duration < 0.0 || computed < 0 {
            push(
                out,
                "negative_duration",
                "stated or computed duration is negative",
            );
        }
        if unit.is_some() && !matches(computed, slack) {
            if !same && mono_diff.is_some_and(|d| matches(d, 0)) {
                push(
                    out,
                    "cross_clock_monotonic",
                    "duration reproduces only by subtracting monotonic clocks of two services, not from utc",
                );
            } else {
                push(
                    out,
                    "duration_mismatch",
                    "derived duration does not reproduce from its start and end events (differs by more than the unit's precision)",
                );
            }
        }
        if clock == Clock::Utc && !same && !self.synced {
            push(
                out,
                "unsynced_cross_observer",
                "interval spans two services and is computed from utc without a synchronization status",
            );
        }
        (out.len() == before).then_some(computed as f64 / 1_000_000.0)
    }
}

fn nonempty(v: Option<&str>) -> bool {
    v.is_some_and(|s| !s.trim().is_empty())
}

fn check_status(rec: &Record<'_>, out: &mut Vec<EvidenceFinding>) {
    if rec.status.as_deref() != Some("completed") {
        return;
    }
    if nonempty(rec.error_reason.as_deref()) || nonempty(rec.cancellation_reason.as_deref()) {
        out.push(EvidenceFinding::new(
            "partial_marked_completed",
            "status".to_owned(),
            "status claims completion but the record carries an error or cancellation reason",
        ));
    }
    let has_final = rec
        .events
        .iter()
        .any(|ev| FINAL_EVENTS.contains(&ev.event_name.as_ref()));
    if has_final {
        return;
    }
    match rec.events.last() {
        Some(last) if is_first_response(&last.event_name) => out.push(EvidenceFinding::new(
            "partial_marked_completed",
            format!("events[{}]", rec.events.len() - 1),
            "status claims completion but the events end at a first-response event with no final event",
        )),
        _ => out.push(EvidenceFinding::new(
            "completed_without_final_event",
            "events".to_owned(),
            "status claims completion but the events hold no final boundary event",
        )),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use serde_json::{Value, json};

    use super::super::{EvidenceShapeError, audit};

    /// The seed `002_*` sample record, verbatim.
    pub(crate) fn seed_sample() -> Value {
        json!({ "schema_version": "latency-evidence.v1", "trace_id": "tr_synthetic_8f31",
          "request_id": "req_synthetic_2047", "attempt": 2, "parent_span_id": "span_gateway_01",
          "span_id": "span_upstream_02", "route_id": "route_example_b", "model_id": "model_alias_example",
          "provider_request_id": "provider_ref_when_available", "deployment_id": "deployment_example",
          "region": "region_example",
          "events": [
            { "stage": "upstream", "event_name": "provider_dispatch", "timestamp_utc": "2026-09-08T10:15:30.120Z",
              "monotonic_ns": 842001000000u64, "service": "gateway" },
            { "stage": "upstream", "event_name": "first_output_token", "timestamp_utc": "2026-09-08T10:15:30.410Z",
              "monotonic_ns": 842291000000u64, "service": "stream_processor" },
            { "stage": "stream", "event_name": "final_output_token", "timestamp_utc": "2026-09-08T10:15:31.260Z",
              "monotonic_ns": 843141000000u64, "service": "stream_processor" } ],
          "derived_intervals": [
            { "name": "gateway_observed_time_to_first_token", "start_event": "provider_dispatch",
              "end_event": "first_output_token", "duration": 290, "duration_unit": "ms" },
            { "name": "token_streaming_time", "start_event": "first_output_token",
              "end_event": "final_output_token", "duration": 850, "duration_unit": "ms" } ],
          "clock_source": "local_monotonic_with_utc_correlation",
          "sync_status": "documented_by_deployment", "status": "completed" })
    }

    /// Audits `v` and returns (rule, path) pairs.
    fn run(v: &Value) -> Vec<(&'static str, String)> {
        let line = v.to_string();
        let mut out = Vec::new();
        audit(&line, &mut out).unwrap();
        assert_value_free(v, &out);
        out.into_iter().map(|f| (f.rule, f.path)).collect()
    }

    fn rules(v: &Value) -> Vec<&'static str> {
        run(v).into_iter().map(|(r, _)| r).collect()
    }

    fn leaves(v: &Value, acc: &mut Vec<String>) {
        match v {
            Value::Object(m) => m.values().for_each(|x| leaves(x, acc)),
            Value::Array(a) => a.iter().for_each(|x| leaves(x, acc)),
            Value::String(s) => acc.push(s.clone()),
            Value::Number(n) => acc.push(n.to_string()),
            _ => {}
        }
    }

    /// No finding echoes a record value (values shorter than 3 characters
    /// would match positions like `[12]` by accident, so they are skipped).
    fn assert_value_free(v: &Value, out: &[super::EvidenceFinding]) {
        let mut vals = Vec::new();
        leaves(v, &mut vals);
        for f in out {
            for val in vals.iter().filter(|s| s.len() >= 3) {
                assert!(
                    !f.message.contains(val.as_str()),
                    "{} echoes a value",
                    f.rule
                );
                assert!(!f.path.contains(val.as_str()), "{} echoes a value", f.rule);
            }
        }
    }

    fn shape_err(v: &Value) -> EvidenceShapeError {
        let line = v.to_string();
        let mut out = Vec::new();
        let e = audit(&line, &mut out).unwrap_err();
        assert!(out.is_empty());
        e
    }

    #[test]
    fn seed_sample_is_clean_and_why() {
        // The ttft interval crosses gateway -> stream_processor: it is computed
        // from UTC (30.410 - 30.120 = 290 ms, matches), clock_source declares
        // UTC correlation (not monotonic-only) and sync_status documents the
        // synchronization, so neither cross_clock_monotonic nor
        // unsynced_cross_observer applies. The streaming interval stays within
        // stream_processor and reproduces from monotonic_ns (850 ms).
        let v = seed_sample();
        let line = v.to_string();
        let mut out = Vec::new();
        let facts = audit(&line, &mut out).unwrap();
        assert!(out.is_empty(), "{out:?}");
        let got: Vec<_> = facts.intervals.iter().map(|i| i.reproduced_ms).collect();
        assert_eq!(got, vec![Some(290.0), Some(850.0)]);
        assert_eq!(facts.route_id.as_deref(), Some("route_example_b"));
        assert_eq!(facts.attempt, Some(2));
        // Borrowed, not copied.
        assert!(matches!(
            facts.model_id,
            Some(std::borrow::Cow::Borrowed(_))
        ));
    }

    #[test]
    fn duration_mismatch() {
        let mut v = seed_sample();
        v["derived_intervals"][1]["duration"] = json!(855);
        assert_eq!(
            run(&v),
            vec![("duration_mismatch", "derived_intervals[1]".into())]
        );
        // One unit either way is rounding, not a mismatch.
        for ok in [849, 851] {
            v["derived_intervals"][1]["duration"] = json!(ok);
            assert!(rules(&v).is_empty());
        }
        v["derived_intervals"][1]["duration"] = json!(0.85);
        v["derived_intervals"][1]["duration_unit"] = json!("s");
        assert!(rules(&v).is_empty());
        v["derived_intervals"][1]["duration"] = json!(850_000_001);
        v["derived_intervals"][1]["duration_unit"] = json!("ns");
        assert!(rules(&v).is_empty());
        v["derived_intervals"][1]["duration"] = json!(850_000_002);
        assert_eq!(rules(&v), vec!["duration_mismatch"]);
    }

    #[test]
    fn utc_tolerance_includes_timestamp_resolution() {
        // ttft from UTC at ms resolution, stated in us: 290.9 ms is within
        // one us plus one ms of the computed 290 ms.
        let mut v = seed_sample();
        v["derived_intervals"][0]["duration"] = json!(290_900);
        v["derived_intervals"][0]["duration_unit"] = json!("us");
        assert!(rules(&v).is_empty());
        v["derived_intervals"][0]["duration"] = json!(291_100);
        // Not from UTC, and not from cross-service monotonic either.
        assert_eq!(rules(&v), vec!["duration_mismatch"]);
    }

    #[test]
    fn negative_duration() {
        let mut v = seed_sample();
        v["derived_intervals"][1]["start_event"] = json!("final_output_token");
        v["derived_intervals"][1]["end_event"] = json!("first_output_token");
        v["derived_intervals"][1]["duration"] = json!(-850);
        assert_eq!(
            run(&v),
            vec![("negative_duration", "derived_intervals[1]".into())]
        );
    }

    #[test]
    fn events_out_of_order() {
        let mut v = seed_sample();
        v["events"].as_array_mut().unwrap().swap(1, 2);
        assert_eq!(run(&v), vec![("events_out_of_order", "events[2]".into())]);
        // Across services by UTC.
        let mut v = seed_sample();
        v["events"].as_array_mut().unwrap().swap(0, 1);
        assert_eq!(run(&v), vec![("events_out_of_order", "events[1]".into())]);
    }

    #[test]
    fn missing_event() {
        let mut v = seed_sample();
        v["derived_intervals"][0]["end_event"] = json!("no_such_boundary");
        assert_eq!(
            run(&v),
            vec![("missing_event", "derived_intervals[0]".into())]
        );
    }

    #[test]
    fn duplicate_event() {
        let mut v = seed_sample();
        let copy = v["events"][2].clone();
        v["events"].as_array_mut().unwrap().push(copy);
        assert_eq!(run(&v), vec![("duplicate_event", "events[3]".into())]);
        // Same name from another service is a duplicate too (documented).
        let mut v = seed_sample();
        let mut copy = v["events"][2].clone();
        copy["service"] = json!("gateway");
        v["events"].as_array_mut().unwrap().push(copy);
        assert_eq!(rules(&v), vec!["duplicate_event"]);
    }

    #[test]
    fn cross_clock_monotonic() {
        let mut v = seed_sample();
        v["clock_source"] = json!("local_monotonic");
        assert_eq!(
            run(&v),
            vec![("cross_clock_monotonic", "derived_intervals[0]".into())]
        );
        // UTC says 380 ms; only the cross-service monotonic difference gives 290.
        let mut v = seed_sample();
        v["events"][1]["timestamp_utc"] = json!("2026-09-08T10:15:30.500Z");
        assert_eq!(
            run(&v),
            vec![("cross_clock_monotonic", "derived_intervals[0]".into())]
        );
        // Without UTC timestamps, monotonic across services is all there is.
        let mut v = seed_sample();
        v["events"][0]
            .as_object_mut()
            .unwrap()
            .remove("timestamp_utc");
        assert_eq!(rules(&v), vec!["cross_clock_monotonic"]);
    }

    #[test]
    fn unsynced_cross_observer() {
        for status in [
            json!(null),
            json!(""),
            json!("unknown"),
            json!("Unsynchronized"),
        ] {
            let mut v = seed_sample();
            v["sync_status"] = status;
            assert_eq!(
                run(&v),
                vec![("unsynced_cross_observer", "derived_intervals[0]".into())]
            );
        }
        let mut v = seed_sample();
        v.as_object_mut().unwrap().remove("sync_status");
        assert_eq!(rules(&v), vec!["unsynced_cross_observer"]);
    }

    #[test]
    fn token_byte_mismatch() {
        let mut v = seed_sample();
        v["derived_intervals"][0]["name"] = json!("gateway_observed_time_to_first_byte");
        assert_eq!(
            run(&v),
            vec![("token_byte_mismatch", "derived_intervals[0]".into())]
        );
        let mut v = seed_sample();
        v["derived_intervals"][0]["name"] = json!("ttft");
        v["events"][1]["event_name"] = json!("first_response_byte");
        v["derived_intervals"][0]["end_event"] = json!("first_response_byte");
        v["derived_intervals"][1]["start_event"] = json!("first_response_byte");
        assert_eq!(
            rules(&v),
            vec!["token_byte_mismatch", "token_byte_mismatch"]
        );
    }

    #[test]
    fn unknown_duration_unit() {
        let mut v = seed_sample();
        v["derived_intervals"][1]["duration_unit"] = json!("millis");
        assert_eq!(
            run(&v),
            vec![("unknown_duration_unit", "derived_intervals[1]".into())]
        );
        v["derived_intervals"][1]
            .as_object_mut()
            .unwrap()
            .remove("duration_unit");
        assert_eq!(rules(&v), vec!["unknown_duration_unit"]);
    }

    #[test]
    fn schema_version() {
        let mut v = seed_sample();
        v.as_object_mut().unwrap().remove("schema_version");
        assert_eq!(
            run(&v),
            vec![("missing_schema_version", "schema_version".into())]
        );
        v["schema_version"] = json!("latency-evidence.v2");
        assert_eq!(
            run(&v),
            vec![("unknown_schema_version", "schema_version".into())]
        );
    }

    #[test]
    fn completed_without_final_event() {
        let mut v = seed_sample();
        v["events"][2]["event_name"] = json!("last_observed_token");
        v["derived_intervals"][1]["end_event"] = json!("last_observed_token");
        assert_eq!(
            run(&v),
            vec![("completed_without_final_event", "events".into())]
        );
        v["status"] = json!("partial");
        assert!(rules(&v).is_empty());
    }

    #[test]
    fn partial_marked_completed() {
        let mut v = seed_sample();
        v["cancellation_reason"] = json!("client_cancelled");
        assert_eq!(run(&v), vec![("partial_marked_completed", "status".into())]);
        v["status"] = json!("cancelled");
        assert!(rules(&v).is_empty());

        let mut v = seed_sample();
        v["error_reason"] = json!(null);
        v["cancellation_reason"] = json!("");
        assert!(rules(&v).is_empty());

        // Ends at the first token, nothing final: partial, not "without final".
        let mut v = seed_sample();
        v["events"].as_array_mut().unwrap().pop();
        v["derived_intervals"].as_array_mut().unwrap().pop();
        assert_eq!(
            run(&v),
            vec![("partial_marked_completed", "events[1]".into())]
        );
    }

    #[test]
    fn shape_errors_name_the_place_and_no_value() {
        let mut v = seed_sample();
        v["events"] = json!({"a": 1});
        assert_eq!(shape_err(&v).path, "events");
        let mut v = seed_sample();
        v["derived_intervals"][1]["duration"] = json!("850 secret");
        let e = shape_err(&v);
        assert_eq!(e.path, "derived_intervals[1].duration");
        assert!(!e.to_string().contains("secret"));
        let mut v = seed_sample();
        v["events"][2]["timestamp_utc"] = json!("yesterday secret");
        let e = shape_err(&v);
        assert_eq!(e.path, "events[2].timestamp_utc");
        assert!(!e.to_string().contains("secret"));
    }

    #[test]
    fn resolution_from_fraction_digits() {
        assert_eq!(super::resolution_ns("2026-09-08T10:15:30Z"), 1_000_000_000);
        assert_eq!(super::resolution_ns("2026-09-08T10:15:30.1Z"), 100_000_000);
        assert_eq!(super::resolution_ns("2026-09-08T10:15:30.120Z"), 1_000_000);
        assert_eq!(super::resolution_ns("2026-09-08T10:15:30.123456789Z"), 1);
    }
}
