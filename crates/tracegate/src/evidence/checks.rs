//! The per-record auditor rules (see the table in the module docs).
//!
//! The rules read a [`Record`] (byte ranges of the line) through a [`View`]
//! and keep their per-record state in a [`Work`] reused from record to
//! record, so a clean record costs no allocation. Event names are matched
//! by a linear scan while a record has few events (the common case, a
//! handful) and through a hash map past [`LINEAR_EVENTS`], so a record with
//! thousands of events stays linear in its size.

use std::collections::HashMap;

use super::model::{Event, Record, Str, Top};
use super::{EvidenceFinding, EvidenceShapeError, SCHEMA_VERSION};
use crate::finding::Rule;
use crate::gate::fast::same;

/// Past this many events, names are looked up in a hash map.
const LINEAR_EVENTS: usize = 32;

/// Final boundary events: a completed record must hold one.
const FINAL_EVENTS: &[&[u8]] = &[
    b"final_output_token",
    b"final_response_byte",
    b"final_response_flush",
    b"stream_complete",
    b"upstream_completion",
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

/// A record and the line its ranges point into.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    pub rec: &'a Record,
    pub line: &'a [u8],
}

impl<'a> View<'a> {
    fn s(&self, s: Str) -> &'a [u8] {
        self.rec.bytes(self.line, s)
    }

    fn top(&self, t: Top) -> Option<&'a [u8]> {
        self.rec.top(t).map(|s| self.s(s))
    }

    fn events(&self) -> &'a [Event] {
        &self.rec.events
    }

    fn service(&self, j: usize) -> Option<&'a [u8]> {
        self.rec
            .events
            .get(j)
            .and_then(|e| e.service)
            .map(|s| self.s(s))
    }
}

/// A UTC timestamp in nanoseconds since the epoch, with the resolution its
/// text carried (1 ms for `.120Z`, 1 s for no fraction).
#[derive(Clone, Copy)]
struct Utc {
    ns: i128,
    resolution_ns: i128,
}

/// The clocks one event carries.
#[derive(Clone, Copy)]
struct Timing {
    mono: Option<u64>,
    utc: Option<Utc>,
}

/// Longest name [`WordCache`] keeps.
const CACHED_NAME: usize = 48;

/// The token/byte words of the last few interval and event names: the
/// same dozen names come back in every record of a producer.
#[derive(Default)]
struct WordCache {
    entries: Vec<(u8, [u8; CACHED_NAME], (bool, bool))>,
    next: usize,
}

impl WordCache {
    fn token_byte(&mut self, name: &[u8]) -> (bool, bool) {
        if name.len() > CACHED_NAME {
            return token_byte(name);
        }
        let n = name.len() as u8;
        if let Some(e) = self
            .entries
            .iter()
            .find(|e| e.0 == n && e.1.get(..name.len()).is_some_and(|k| same(k, name)))
        {
            return e.2;
        }
        let mut key = [0u8; CACHED_NAME];
        if let Some(dst) = key.get_mut(..name.len()) {
            dst.copy_from_slice(name);
        }
        let flags = token_byte(name);
        if self.entries.len() < 16 {
            self.entries.push((n, key, flags));
        } else if let Some(slot) = self.entries.get_mut(self.next % 16) {
            *slot = (n, key, flags);
            self.next = self.next.wrapping_add(1);
        }
        flags
    }
}

/// The answer of a test on a value for the last value it was asked of:
/// `clock_source` and `sync_status` are the same in every record of a
/// producer.
#[derive(Default)]
struct LastAnswer {
    value: Vec<u8>,
    answer: Option<bool>,
}

impl LastAnswer {
    fn of(&mut self, value: &[u8], test: fn(&[u8]) -> bool) -> bool {
        match self.answer {
            Some(a) if same(&self.value, value) => a,
            _ => {
                let a = test(value);
                self.value.clear();
                self.value.extend_from_slice(value);
                self.answer = Some(a);
                a
            }
        }
    }
}

/// Days since the epoch of the last date [`fast_utc`] converted: the events
/// of a record, and records in a row, share their date.
#[derive(Default, Clone, Copy)]
struct LastDay {
    ymd: Option<(i64, i64, i64)>,
    days: i64,
}

impl LastDay {
    fn days(&mut self, y: i64, m: i64, d: i64) -> i64 {
        if self.ymd != Some((y, m, d)) {
            self.ymd = Some((y, m, d));
            self.days = days_from_civil(y, m, d);
        }
        self.days
    }
}

/// Per-record state of the rules, reused from record to record.
#[derive(Default)]
pub(crate) struct Work {
    timings: Vec<Timing>,
    words: WordCache,
    day: LastDay,
    monotonic_only: LastAnswer,
    synced: LastAnswer,
    /// Per derived interval: its computed duration in ms when it reproduced
    /// and drew no finding.
    pub reproduced: Vec<Option<f64>>,
}

/// Where each event name first occurs.
enum Names<'a> {
    /// Few events: scan them.
    Linear(View<'a>),
    /// Many: a map from name to first index.
    Map(HashMap<&'a [u8], usize>),
}

impl<'a> Names<'a> {
    fn first(&self, name: &[u8]) -> Option<usize> {
        match self {
            Names::Linear(v) => v.events().iter().position(|e| same(v.s(e.name), name)),
            Names::Map(m) => m.get(name).copied(),
        }
    }
}

/// Runs every per-record rule; fills `work.reproduced` with, per derived
/// interval, its computed duration in ms when it reproduced and drew no
/// finding.
///
/// Timestamps are parsed first, so a shape error leaves `out` untouched.
pub(crate) fn run(
    v: View<'_>,
    work: &mut Work,
    out: &mut Vec<EvidenceFinding>,
) -> Result<(), EvidenceShapeError> {
    let Work {
        timings,
        words,
        day,
        monotonic_only,
        synced,
        reproduced,
    } = work;
    parse_timings(v, timings, day)?;
    check_schema_version(v, out);
    let names = check_duplicates(v, out);
    check_order(v, timings, out);
    let ctx = Ctx {
        v,
        timings,
        names: &names,
        monotonic_only: v
            .top(Top::ClockSource)
            .is_some_and(|c| monotonic_only.of(c, is_monotonic_only)),
        synced: v
            .top(Top::SyncStatus)
            .is_some_and(|c| synced.of(c, is_synced)),
    };
    reproduced.clear();
    for (i, iv) in v.rec.intervals.iter().enumerate() {
        let r = ctx.check_interval(i, iv, words, out);
        reproduced.push(r);
    }
    check_status(v, out);
    Ok(())
}

fn parse_timings(
    v: View<'_>,
    timings: &mut Vec<Timing>,
    day: &mut LastDay,
) -> Result<(), EvidenceShapeError> {
    timings.clear();
    for (j, ev) in v.events().iter().enumerate() {
        let utc = match ev.utc {
            None => None,
            Some(s) => Some(parse_utc(v.s(s), day).ok_or_else(|| EvidenceShapeError {
                path: format!("events[{j}].timestamp_utc"),
                message: "timestamp is not an rfc 3339 timestamp with an offset",
            })?),
        };
        timings.push(Timing { mono: ev.mono, utc });
    }
    Ok(())
}

fn parse_utc(text: &[u8], day: &mut LastDay) -> Option<Utc> {
    if let Some((ns, digits)) = fast_utc(text, day) {
        return Some(Utc {
            ns,
            resolution_ns: RESOLUTION_NS[digits.min(9)],
        });
    }
    let ts: jiff::Timestamp = std::str::from_utf8(text).ok()?.parse().ok()?;
    Some(Utc {
        ns: ts.as_nanosecond(),
        resolution_ns: resolution_ns(text),
    })
}

/// Two ASCII digits at `at`.
fn two(b: &[u8], at: usize) -> Option<i64> {
    match (b.get(at), b.get(at + 1)) {
        (Some(&x @ b'0'..=b'9'), Some(&y @ b'0'..=b'9')) => {
            Some(i64::from(x - b'0') * 10 + i64::from(y - b'0'))
        }
        _ => None,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
/// `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The common form, `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|+00:00)` with a year in
/// 1000..=8999, in nanoseconds since the epoch, without the general
/// parser; `None` for anything else (which jiff then decides).
///
/// **Invariant:** when this returns `Some`, jiff parses the same text to
/// the same instant (a property test holds the two together).
#[cfg(test)]
fn fast_utc_ns(b: &[u8]) -> Option<i128> {
    fast_utc(b, &mut LastDay::default()).map(|(ns, _)| ns)
}

/// [`fast_utc_ns`] and the number of fractional digits, whose resolution
/// ([`RESOLUTION_NS`]) is then that of [`resolution_ns`] (a property test
/// holds them together).
fn fast_utc(b: &[u8], days: &mut LastDay) -> Option<(i128, usize)> {
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let year = two(b, 0)? * 100 + two(b, 2)?;
    let (month, day) = (two(b, 5)?, two(b, 8)?);
    let (hour, minute, second) = (two(b, 11)?, two(b, 14)?, two(b, 17)?);
    if !(1000..=8999).contains(&year)
        || !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return None;
    }
    let mut i = 19;
    let mut frac: i64 = 0;
    let mut digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 || digits > 9 {
            return None;
        }
        // At most nine digits: an i64, scaled to nanoseconds at once.
        for &c in &b[i..i + digits] {
            frac = frac * 10 + i64::from(c - b'0');
        }
        frac *= i64::try_from(RESOLUTION_NS[digits]).ok()?;
        i += digits;
    }
    match &b[i..] {
        b"Z" | b"+00:00" => {}
        _ => return None,
    }
    let secs = days.days(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
    Some((i128::from(secs) * 1_000_000_000 + i128::from(frac), digits))
}

/// `x as f64`, through an `i64` when it fits: the same rounding (to
/// nearest, of the same integer), without the 128-bit conversion routine,
/// which showed in profiles.
#[inline]
fn f64_of(x: i128) -> f64 {
    match i64::try_from(x) {
        // Opaque to the optimizer, which otherwise sees that this arm is
        // `x as f64` too and calls the 128-bit routine for both.
        Ok(v) => std::hint::black_box(v) as f64,
        Err(_) => x as f64,
    }
}

/// The resolution of a timestamp with 0..=9 fractional digits.
const RESOLUTION_NS: [i128; 10] = [
    1_000_000_000,
    100_000_000,
    10_000_000,
    1_000_000,
    100_000,
    10_000,
    1_000,
    100,
    10,
    1,
];

/// The resolution implied by the fractional digits after the seconds.
fn resolution_ns(text: &[u8]) -> i128 {
    let after_t = text
        .iter()
        .position(|&c| matches!(c, b'T' | b't' | b' '))
        .map_or(text, |p| &text[p..]);
    let digits = after_t
        .iter()
        .position(|&c| c == b'.' || c == b',')
        .map_or(0, |p| {
            after_t[p + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count()
        });
    RESOLUTION_NS[digits.min(9)]
}

fn unit_ns(unit: &[u8]) -> Option<i128> {
    match unit {
        b"ns" => Some(1),
        b"us" => Some(1_000),
        b"ms" => Some(1_000_000),
        b"s" => Some(1_000_000_000),
        _ => None,
    }
}

fn words(name: &[u8]) -> impl Iterator<Item = &[u8]> {
    name.split(|&c| matches!(c, b'_' | b'-' | b'.'))
}

/// Whether `name` has a token word (`token`, `tokens`, `ttft`) and a byte
/// word (`byte`, `bytes`, `ttfb`), ASCII case-insensitively: one pass over
/// the words, each compared only with the words of its length.
fn token_byte(name: &[u8]) -> (bool, bool) {
    let (mut token, mut byte) = (false, false);
    for w in words(name) {
        match w.len() {
            4 => {
                token |= w.eq_ignore_ascii_case(b"ttft");
                byte |= w.eq_ignore_ascii_case(b"byte") || w.eq_ignore_ascii_case(b"ttfb");
            }
            5 => {
                token |= w.eq_ignore_ascii_case(b"token");
                byte |= w.eq_ignore_ascii_case(b"bytes");
            }
            6 => token |= w.eq_ignore_ascii_case(b"tokens"),
            _ => {}
        }
    }
    (token, byte)
}

fn is_first_response(name: &[u8]) -> bool {
    name.starts_with(b"first_")
        && words(name).any(|w| matches!(w, b"token" | b"byte" | b"response"))
}

/// `hay` holds `needle` (lowercase ASCII), ignoring ASCII case.
fn contains_ci(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

/// `clock_source` claims monotonic clocks and no UTC or wall correlation.
fn is_monotonic_only(clock_source: &[u8]) -> bool {
    contains_ci(clock_source, b"monotonic")
        && !contains_ci(clock_source, b"utc")
        && !contains_ci(clock_source, b"wall")
}

/// Unicode-trimmed text of a value (the model's strings are valid UTF-8).
fn trimmed(b: &[u8]) -> &str {
    std::str::from_utf8(b).map_or("", str::trim)
}

fn is_synced(sync_status: &[u8]) -> bool {
    let s = trimmed(sync_status);
    !s.is_empty() && !UNSYNCED.iter().any(|u| s.eq_ignore_ascii_case(u))
}

fn check_schema_version(v: View<'_>, out: &mut Vec<EvidenceFinding>) {
    match v.top(Top::SchemaVersion) {
        None => out.push(EvidenceFinding::new(
            Rule::MissingSchemaVersion,
            "schema_version".to_owned(),
            "record has no schema version",
        )),
        Some(s) if s == SCHEMA_VERSION.as_bytes() => {}
        Some(_) => out.push(EvidenceFinding::new(
            Rule::UnknownSchemaVersion,
            "schema_version".to_owned(),
            "schema version is not latency-evidence.v1; checked as v1",
        )),
    }
}

/// Reports every repeated `event_name` (at its later position) and returns
/// where each name first occurs, which intervals resolve to.
///
/// Decision: a duplicate is the same name regardless of service, because an
/// interval names its events by `event_name` alone; a second event of that
/// name makes every reference to it ambiguous.
fn check_duplicates<'a>(v: View<'a>, out: &mut Vec<EvidenceFinding>) -> Names<'a> {
    let events = v.events();
    let dup = |j: usize, out: &mut Vec<EvidenceFinding>| {
        out.push(EvidenceFinding::new(
            Rule::DuplicateEvent,
            format!("events[{j}]"),
            "event name occurs earlier in this attempt's events",
        ));
    };
    if events.len() <= LINEAR_EVENTS {
        for (j, ev) in events.iter().enumerate() {
            let name = v.s(ev.name);
            if events[..j].iter().any(|e| same(v.s(e.name), name)) {
                dup(j, out);
            }
        }
        return Names::Linear(v);
    }
    let mut index: HashMap<&[u8], usize> = HashMap::with_capacity(events.len());
    for (j, ev) in events.iter().enumerate() {
        let name = v.s(ev.name);
        if index.contains_key(name) {
            dup(j, out);
        } else {
            index.insert(name, j);
        }
    }
    Names::Map(index)
}

fn same_observer(v: View<'_>, a: usize, b: usize) -> bool {
    let sa = v.service(a);
    sa.is_some() && sa == v.service(b)
}

/// `later` is certainly earlier than `earlier` by UTC, allowing for the
/// coarser resolution of the two timestamps.
fn utc_before(later: Utc, earlier: Utc) -> bool {
    earlier.ns - later.ns >= later.resolution_ns.max(earlier.resolution_ns)
}

/// The last event before `j` from the same service: a backward scan while
/// the record is small, a map of services past [`LINEAR_EVENTS`].
fn check_order(v: View<'_>, timings: &[Timing], out: &mut Vec<EvidenceFinding>) {
    let n = v.events().len();
    let mut last_of_service: HashMap<&[u8], usize> = HashMap::new();
    for j in 0..n {
        let mut bad = false;
        if let Some(svc) = v.service(j) {
            let prev = if n <= LINEAR_EVENTS {
                (0..j).rev().find(|&p| v.service(p) == Some(svc))
            } else {
                last_of_service.insert(svc, j)
            };
            if let Some(p) = prev {
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
        }
        if j > 0
            && !same_observer(v, j - 1, j)
            && let (Some(a), Some(b)) = (timings[j - 1].utc, timings[j].utc)
        {
            bad |= utc_before(b, a);
        }
        if bad {
            out.push(EvidenceFinding::new(
                Rule::EventsOutOfOrder,
                format!("events[{j}]"),
                "event is earlier than an event listed before it (same service by monotonic clock, across services by utc)",
            ));
        }
    }
}

struct Ctx<'c, 'a> {
    v: View<'a>,
    timings: &'c [Timing],
    names: &'c Names<'a>,
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
        iv: &super::model::Interval,
        words: &mut WordCache,
        out: &mut Vec<EvidenceFinding>,
    ) -> Option<f64> {
        let before = out.len();
        let path = || format!("derived_intervals[{i}]");
        let push = |out: &mut Vec<EvidenceFinding>, rule, message| {
            out.push(EvidenceFinding::new(rule, path(), message));
        };

        let name = self.v.s(iv.name);
        let ends = [self.v.s(iv.start), self.v.s(iv.end)];
        let (t, b) = words.token_byte(name);
        let (token_name, byte_name) = (t && !b, b && !t);
        let mut only = |e: &[u8], want_token: bool| {
            let (t, b) = words.token_byte(e);
            if want_token { t && !b } else { b && !t }
        };
        if (token_name && (only(ends[0], false) || only(ends[1], false)))
            || (byte_name && (only(ends[0], true) || only(ends[1], true)))
        {
            push(
                out,
                Rule::TokenByteMismatch,
                "interval named for tokens starts or ends at a byte event, or the reverse",
            );
        }

        let unit = iv.unit.map(|u| self.v.s(u)).and_then(unit_ns);
        if unit.is_none() {
            push(
                out,
                Rule::UnknownDurationUnit,
                "duration unit is absent or not one of ns, us, ms, s",
            );
        }

        let start = self.names.first(ends[0]);
        let end = self.names.first(ends[1]);
        if start.is_none() {
            push(
                out,
                Rule::MissingEvent,
                "start event names no event in events",
            );
        }
        if end.is_none() {
            push(
                out,
                Rule::MissingEvent,
                "end event names no event in events",
            );
        }
        let (Some(s), Some(e)) = (start, end) else {
            if iv.duration < 0.0 {
                push(out, Rule::NegativeDuration, "stated duration is negative");
            }
            return None;
        };

        let (st, et) = (&self.timings[s], &self.timings[e]);
        let same = same_observer(self.v, s, e);
        let mono_diff = match (st.mono, et.mono) {
            (Some(a), Some(b)) => Some(i128::from(b) - i128::from(a)),
            _ => None,
        };
        // Does the stated duration match `computed` within one unit plus `slack`?
        let matches = |computed: i128, slack: i128| {
            unit.is_some_and(|u| {
                let diff = iv.duration * f64_of(u) - f64_of(computed);
                diff.abs() <= f64_of(u + slack)
            })
        };

        if !same && self.monotonic_only {
            push(
                out,
                Rule::CrossClockMonotonic,
                "interval spans two services but the clock source is monotonic only: two clock domains",
            );
            if iv.duration < 0.0 {
                push(out, Rule::NegativeDuration, "stated duration is negative");
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
                    Rule::CrossClockMonotonic,
                    "duration reproduces only by subtracting monotonic clocks of two services",
                );
            } else {
                push(
                    out,
                    Rule::DurationMismatch,
                    "derived duration cannot be reproduced: its events share no usable clock",
                );
            }
            if iv.duration < 0.0 {
                push(out, Rule::NegativeDuration, "stated duration is negative");
            }
            return None;
        };

        if iv.duration < 0.0 || computed < 0 {
            push(
                out,
                Rule::NegativeDuration,
                "stated or computed duration is negative",
            );
        }
        if unit.is_some() && !matches(computed, slack) {
            if !same && mono_diff.is_some_and(|d| matches(d, 0)) {
                push(
                    out,
                    Rule::CrossClockMonotonic,
                    "duration reproduces only by subtracting monotonic clocks of two services, not from utc",
                );
            } else {
                push(
                    out,
                    Rule::DurationMismatch,
                    "derived duration does not reproduce from its start and end events (differs by more than the unit's precision)",
                );
            }
        }
        if clock == Clock::Utc && !same && !self.synced {
            push(
                out,
                Rule::UnsyncedCrossObserver,
                "interval spans two services and is computed from utc without a synchronization status",
            );
        }
        (out.len() == before).then_some(f64_of(computed) / 1_000_000.0)
    }
}

fn nonempty(v: Option<&[u8]>) -> bool {
    v.is_some_and(|s| !trimmed(s).is_empty())
}

fn check_status(v: View<'_>, out: &mut Vec<EvidenceFinding>) {
    if v.top(Top::Status) != Some(b"completed".as_slice()) {
        return;
    }
    if nonempty(v.top(Top::ErrorReason)) || nonempty(v.top(Top::CancellationReason)) {
        out.push(EvidenceFinding::new(
            Rule::PartialMarkedCompleted,
            "status".to_owned(),
            "status claims completion but the record carries an error or cancellation reason",
        ));
    }
    let events = v.events();
    let has_final = events
        .iter()
        .any(|ev| FINAL_EVENTS.iter().any(|f| same(f, v.s(ev.name))));
    if has_final {
        return;
    }
    match events.last() {
        Some(last) if is_first_response(v.s(last.name)) => out.push(EvidenceFinding::new(
            Rule::PartialMarkedCompleted,
            format!("events[{}]", events.len() - 1),
            "status claims completion but the events end at a first-response event with no final event",
        )),
        _ => out.push(EvidenceFinding::new(
            Rule::CompletedWithoutFinalEvent,
            "events".to_owned(),
            "status claims completion but the events hold no final boundary event",
        )),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use serde_json::{Value, json};

    use super::super::{Auditor, EvidenceFinding, EvidenceShapeError};

    fn audit(line: &str, out: &mut Vec<EvidenceFinding>) -> Result<(), EvidenceShapeError> {
        Auditor::new().audit_line(line, out).map(|_| ())
    }

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
        out.into_iter().map(|f| (f.rule.as_str(), f.path)).collect()
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
        let e = Auditor::new().audit_line(&line, &mut out).unwrap_err();
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
        let mut auditor = Auditor::new();
        let facts = auditor.audit_line(&line, &mut out).unwrap();
        assert!(out.is_empty(), "{out:?}");
        let got: Vec<_> = facts.intervals().map(|(_, r)| r).collect();
        assert_eq!(got, vec![Some(290.0), Some(850.0)]);
        assert_eq!(facts.route_id(), Some("route_example_b"));
        assert_eq!(facts.attempt(), Some(2));
        // Borrowed from the line, not copied.
        let model = facts.model_id().unwrap();
        assert!(line.as_bytes().as_ptr_range().contains(&model.as_ptr()));
    }

    /// The common-form timestamp parser agrees with jiff wherever it
    /// answers, and answers for the forms records use.
    #[test]
    fn f64_of_is_the_cast() {
        use proptest::prelude::*;
        proptest!(|(x in any::<i128>(), y in any::<i64>(), shift in 0u32..70)| {
            prop_assert_eq!(super::f64_of(x).to_bits(), (x as f64).to_bits());
            let z = i128::from(y) << shift.min(63);
            prop_assert_eq!(super::f64_of(z).to_bits(), (z as f64).to_bits());
            let w = i128::from(y);
            prop_assert_eq!(super::f64_of(w).to_bits(), (w as f64).to_bits());
        });
        for x in [
            i128::from(i64::MAX),
            i128::from(i64::MIN),
            (1i128 << 53) + 1,
            -(1i128 << 60) - 3,
        ] {
            assert_eq!(super::f64_of(x).to_bits(), (x as f64).to_bits());
        }
    }

    #[test]
    fn fast_utc_agrees_with_jiff() {
        use proptest::prelude::*;
        let jiff_ns = |s: &str| s.parse::<jiff::Timestamp>().ok().map(|t| t.as_nanosecond());
        let cfg = ProptestConfig {
            cases: 5000,
            ..ProptestConfig::default()
        };
        proptest!(cfg, |(y in 900i64..9100, mo in 0i64..14, d in 0i64..33, h in 0i64..25, mi in 0i64..61,
                         se in 0i64..62, frac in proptest::option::of("[0-9]{1,10}"),
                         tz in prop::sample::select(vec!["Z", "+00:00", "z", "+01:00", "", "-00:00"]))| {
            let f = frac.map(|f| format!(".{f}")).unwrap_or_default();
            let s = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{se:02}{f}{tz}");
            if let Some((ns, digits)) = super::fast_utc(s.as_bytes(), &mut super::LastDay::default()) {
                prop_assert_eq!(Some(ns), jiff_ns(&s), "{}", s);
                prop_assert_eq!(super::RESOLUTION_NS[digits], super::resolution_ns(s.as_bytes()), "{}", s);
            }
        });
        for s in [
            "2026-09-08T10:15:30.120Z",
            "2024-02-29T23:59:59+00:00",
            "2026-09-08T10:15:30Z",
            "2026-09-08T10:15:30.123456789Z",
        ] {
            assert_eq!(super::fast_utc_ns(s.as_bytes()), jiff_ns(s), "{s}");
            assert!(super::fast_utc_ns(s.as_bytes()).is_some(), "{s}");
        }
        for s in [
            "2023-02-29T00:00:00Z",
            "2026-09-08T10:15:60Z",
            "2026-09-08 10:15:30Z",
        ] {
            assert!(super::fast_utc_ns(s.as_bytes()).is_none(), "{s}");
        }
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

    /// The word cache answers what the scan answers, for names in and out
    /// of it, long and short.
    #[test]
    fn word_cache_agrees_with_the_scan() {
        use proptest::prelude::*;
        let cache = std::cell::RefCell::new(super::WordCache::default());
        proptest!(|(names in prop::collection::vec("(ttft|TOKEN|bytes|byte|ttfb|tokens|first|x){1,12}([_.-](token|Byte|x|ttft)){0,4}", 1..40))| {
            for n in &names {
                prop_assert_eq!(cache.borrow_mut().token_byte(n.as_bytes()), super::token_byte(n.as_bytes()), "{}", n);
            }
        });
    }

    #[test]
    fn resolution_from_fraction_digits() {
        assert_eq!(super::resolution_ns(b"2026-09-08T10:15:30Z"), 1_000_000_000);
        assert_eq!(super::resolution_ns(b"2026-09-08T10:15:30.1Z"), 100_000_000);
        assert_eq!(super::resolution_ns(b"2026-09-08T10:15:30.120Z"), 1_000_000);
        assert_eq!(super::resolution_ns(b"2026-09-08T10:15:30.123456789Z"), 1);
    }
}
