//! Capture windows: when a sink may receive full records.
//!
//! This module holds the pure parts: a window's state at an instant, and
//! where a stored record lies in time (for `check --sink`). The runtime that
//! enables and closes windows against the audit log is [`runtime`].

pub mod budget;
pub mod budget_share;
pub mod budget_source;
pub mod clock;
pub mod fleet_state;
pub mod runtime;
pub mod segments;

use std::collections::HashMap;

use jiff::{SignedDuration, Timestamp};

pub use crate::audit::CloseCause;
use crate::policy::Window;
use crate::record::tape::{Kind, Tape, raw, string_value};

/// The clock skew tolerated between the machines whose clocks meet in a
/// window: the operator's (`window open --start`), the gate's (audit
/// entries) and the producers' (a record's own times). A `--start` further
/// in the past than this is back-dating; a record that starts more than
/// this before its window's enablement was not captured in it.
pub const CLOCK_SKEW: SignedDuration = SignedDuration::from_secs(60);

/// The level a sink receives a record at: what its capture windows allow
/// now ([`runtime::Capture::level`]), judged by the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Level {
    /// Content and unknown fields removed.
    Standard,
    /// Content fields pass (after redaction); the rest is still allowlisted.
    Full,
}

/// A window's state at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowState {
    /// Not started yet.
    Pending,
    /// Open now.
    Active,
    /// Its end has passed.
    Expired,
    /// Closed for good in the audit log (budget spent or removed).
    Closed(CloseCause),
}

impl WindowState {
    /// The name shown by `policy check` and `window list`.
    pub fn as_str(self) -> &'static str {
        match self {
            WindowState::Pending => "pending",
            WindowState::Active => "active",
            WindowState::Expired => "expired",
            WindowState::Closed(_) => "closed",
        }
    }
}

/// The state of `w` by the clock reading `now`, when `floor` is a time
/// known to have passed already (see [`crate::audit::AuditLog::time_floor`]),
/// given the windows the audit log closed for good.
///
/// SECURITY: the end is judged by `max(now, floor)`, so a clock set back
/// cannot bring back a window that a trusted time has seen end; the start
/// by `now` alone, so a floor (a file time someone set ahead, say) can
/// only end a window early, never open one early.
pub fn state_with_floor(
    w: &Window,
    now: Timestamp,
    floor: Option<Timestamp>,
    closed: &HashMap<String, CloseCause>,
) -> WindowState {
    if let Some(cause) = closed.get(&w.id) {
        return WindowState::Closed(*cause);
    }
    if latest(now, floor) >= w.end {
        WindowState::Expired
    } else if now < w.start {
        WindowState::Pending
    } else {
        WindowState::Active
    }
}

/// `max(now, floor)`: the gate's trusted "now" for a window's end.
pub fn latest(now: Timestamp, floor: Option<Timestamp>) -> Timestamp {
    floor.map_or(now, |f| now.max(f))
}

/// How long until `w` changes state (starts or ends), if it will.
pub fn time_left(w: &Window, now: Timestamp) -> Option<SignedDuration> {
    if now < w.start {
        Some(w.start.duration_since(now))
    } else if now < w.end {
        Some(w.end.duration_since(now))
    } else {
        None
    }
}

/// `s` made safe to print in an operator's terminal, for the free text of a
/// window (`reason`, `requested_by`): control characters (C0, DEL, C1), the
/// line and paragraph separators, bidi controls and invisible joiners are
/// written as `\u{XXXX}`, and a backslash as `\\` so an escape cannot be
/// faked.
///
/// SECURITY: without this a newline or a bidi override in a window file
/// draws a fake line or reorders text in `window list` and `policy check`.
pub fn escape_display(s: &str) -> std::borrow::Cow<'_, str> {
    fn unsafe_char(c: char) -> bool {
        c.is_control()
            || matches!(
                c,
                '\\'
                    | '\u{061C}'
                    | '\u{200B}'..='\u{200F}'
                    | '\u{2028}'..='\u{202E}'
                    | '\u{2060}'..='\u{2069}'
                    | '\u{FEFF}'
            )
    }
    if !s.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c == '\\' {
            out.push_str("\\\\");
        } else if unsafe_char(c) {
            out.push_str(&format!("\\u{{{:04X}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// When a stored record started and ended, by its own clock: a cf record's
/// `t_arrival`..`t_completion` (Unix seconds), or a span's
/// `startTimeUnixNano`..`endTimeUnixNano` (for an OTLP request: the earliest
/// start and the latest end of all its spans and log records).
pub fn record_span(line: &[u8]) -> Option<(Timestamp, Timestamp)> {
    let mut tape = Tape::new();
    let text = tape.scan(line).ok()?;
    let mut span = TimeSpan::default();
    collect_times(&tape, text, 0, &mut span);
    match (span.start, span.end) {
        (Some(s), Some(e)) => Some((s, e)),
        _ => None,
    }
}

#[derive(Default)]
struct TimeSpan {
    start: Option<Timestamp>,
    end: Option<Timestamp>,
}

impl TimeSpan {
    fn widen(&mut self, start: Option<Timestamp>, end: Option<Timestamp>) {
        if let Some(s) = start {
            self.start = Some(self.start.map_or(s, |o| o.min(s)));
        }
        if let Some(e) = end {
            self.end = Some(self.end.map_or(e, |o| o.max(e)));
        }
    }
}

fn collect_times(tape: &Tape, text: &str, obj: usize, span: &mut TimeSpan) {
    let tokens = tape.tokens();
    let (mut start, mut end) = (None, None);
    for (k, v) in tape.members(obj) {
        let key = string_value(text, &tokens[k]);
        let t = &tokens[v];
        match (key.as_ref(), t.kind) {
            ("t_arrival", Kind::Number) => start = unix_seconds(raw(text, t)),
            ("t_completion", Kind::Number) => end = unix_seconds(raw(text, t)),
            ("startTimeUnixNano" | "timeUnixNano", Kind::String | Kind::Number) => {
                start = unix_nanos(&string_or_raw(text, t));
                if key == "timeUnixNano" {
                    end = start;
                }
            }
            ("endTimeUnixNano", Kind::String | Kind::Number) => {
                end = unix_nanos(&string_or_raw(text, t))
            }
            (
                "resourceSpans" | "scopeSpans" | "spans" | "resourceLogs" | "scopeLogs"
                | "logRecords",
                Kind::Array,
            ) => {
                for el in tape.elements(v) {
                    if tokens[el].kind == Kind::Object {
                        collect_times(tape, text, el, span);
                    }
                }
            }
            _ => {}
        }
    }
    span.widen(start, end);
}

fn string_or_raw(text: &str, t: &crate::record::tape::Token) -> String {
    if t.kind == Kind::String {
        string_value(text, t).into_owned()
    } else {
        raw(text, t).to_string()
    }
}

fn unix_seconds(s: &str) -> Option<Timestamp> {
    let f: f64 = s.parse().ok()?;
    let d = SignedDuration::try_from_secs_f64(f).ok()?;
    Timestamp::from_duration(d).ok()
}

fn unix_nanos(s: &str) -> Option<Timestamp> {
    let n: i128 = s.parse().ok()?;
    Timestamp::from_nanosecond(n).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    fn window() -> Window {
        Window {
            id: "w".into(),
            sink: "cap".into(),
            start: ts("2026-12-01T10:00:00Z"),
            end: ts("2026-12-01T12:00:00Z"),
            reason: "r".into(),
            requested_by: "me".into(),
            max_records: None,
            max_bytes: None,
            file: "p.toml".into(),
        }
    }

    #[test]
    fn state_changes_exactly_at_start_and_end() {
        let w = window();
        let none = HashMap::new();
        assert_eq!(
            state_with_floor(&w, ts("2026-12-01T09:59:59.999Z"), None, &none),
            WindowState::Pending
        );
        assert_eq!(
            state_with_floor(&w, ts("2026-12-01T10:00:00Z"), None, &none),
            WindowState::Active
        );
        assert_eq!(
            state_with_floor(&w, ts("2026-12-01T11:59:59.999999999Z"), None, &none),
            WindowState::Active
        );
        assert_eq!(
            state_with_floor(&w, ts("2026-12-01T12:00:00Z"), None, &none),
            WindowState::Expired
        );
        let closed = HashMap::from([("w".to_string(), CloseCause::BudgetSpent)]);
        assert_eq!(
            state_with_floor(&w, ts("2026-12-01T11:00:00Z"), None, &closed),
            WindowState::Closed(CloseCause::BudgetSpent)
        );
        assert_eq!(
            time_left(&w, ts("2026-12-01T11:30:00Z")),
            Some(SignedDuration::from_mins(30))
        );
    }

    #[test]
    fn a_floor_ends_a_window_early_but_never_starts_one_early() {
        let w = window();
        let none = HashMap::new();
        let floor = Some(ts("2026-12-01T12:00:00Z"));
        // the clock says 11:00 (set back); a trusted time says 12:00
        assert_eq!(
            state_with_floor(&w, ts("2026-12-01T11:00:00Z"), floor, &none),
            WindowState::Expired
        );
        // a floor before the end changes nothing
        let early = Some(ts("2026-12-01T11:30:00Z"));
        assert_eq!(
            state_with_floor(&w, ts("2026-12-01T11:00:00Z"), early, &none),
            WindowState::Active
        );
        // a floor past the start does not open a window the clock says is pending
        assert_eq!(
            state_with_floor(&w, ts("2026-12-01T09:00:00Z"), early, &none),
            WindowState::Pending
        );
        assert_eq!(
            latest(ts("2026-12-01T09:00:00Z"), early),
            ts("2026-12-01T11:30:00Z")
        );
        assert_eq!(
            latest(ts("2026-12-01T11:45:00Z"), early),
            ts("2026-12-01T11:45:00Z")
        );
    }

    #[test]
    fn display_escaping_neutralizes_controls_and_bidi() {
        assert_eq!(escape_display("plain text é"), "plain text é");
        assert_eq!(
            escape_display("a\nwindows:\r\u{1b}[2J"),
            "a\\u{000A}windows:\\u{000D}\\u{001B}[2J"
        );
        assert_eq!(
            escape_display("x\u{202E}y\u{2066}z\u{2028}\u{200D}\u{0085}"),
            "x\\u{202E}y\\u{2066}z\\u{2028}\\u{200D}\\u{0085}"
        );
        // a literal backslash cannot fake an escape
        assert_eq!(escape_display("\\u{000A}"), "\\\\u{000A}");
        // The cases of the terminal escaping this one replaced (io_text's):
        // DEL and C1, the other bidi marks and separators, and words that
        // merely look like them.
        assert_eq!(escape_display("tune ltr recipe é"), "tune ltr recipe é");
        assert_eq!(
            escape_display("ok\n  window  fake  active\r"),
            "ok\\u{000A}  window  fake  active\\u{000D}"
        );
        assert_eq!(
            escape_display("a\u{202e}dcba\u{2066}x\u{2069}\u{200f}\u{061c}"),
            "a\\u{202E}dcba\\u{2066}x\\u{2069}\\u{200F}\\u{061C}"
        );
        assert_eq!(
            escape_display("\u{1b}[2J\u{7f}\u{85}"),
            "\\u{001B}[2J\\u{007F}\\u{0085}"
        );
        assert_eq!(escape_display("\u{2028}\u{2029}"), "\\u{2028}\\u{2029}");
    }

    proptest::proptest! {
        #[test]
        fn escaped_text_has_no_control_or_bidi_char(s in "\\PC*|[\\x00-\\x1f\\u{202a}-\\u{202e}\\u{2066}-\\u{2069}a\\\\]*") {
            let e = escape_display(&s);
            let bad = e.chars().any(|c| c.is_control()
                || matches!(c, '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}'));
            proptest::prop_assert!(!bad, "unescaped character left");
        }
    }

    #[test]
    fn records_are_placed_by_their_own_times() {
        let cf = br#"{"t_arrival": 1789040231.522, "t_completion": 1789040235.108}"#;
        let (s, e) = record_span(cf).unwrap();
        assert_eq!(s.as_millisecond(), 1789040231522);
        assert_eq!(e.as_millisecond(), 1789040235108);
        let span = br#"{"name":"llm_request","startTimeUnixNano":"1788450022633673216","endTimeUnixNano":"1788450022799637248","attributes":[]}"#;
        let (s, e) = record_span(span).unwrap();
        assert_eq!(s.as_nanosecond(), 1788450022633673216);
        assert_eq!(e.as_nanosecond(), 1788450022799637248);
        let req = br#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"startTimeUnixNano":"5","endTimeUnixNano":"9"},{"startTimeUnixNano":"3","endTimeUnixNano":"7"}]}]}]}"#;
        let (s, e) = record_span(req).unwrap();
        assert_eq!((s.as_nanosecond(), e.as_nanosecond()), (3, 9));
        assert!(record_span(br#"{"t_arrival": 1}"#).is_none());
    }
}
