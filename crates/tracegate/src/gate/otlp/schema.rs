//! How the gate checks OTLP/JSON's structural fields. Which keys each
//! message may hold, and the kind of each, is the crate's one OTLP table
//! ([`crate::otlp_schema`]); this module holds the rules those kinds name.
//!
//! Every key not listed there is an `unknown_field` (stripped). The rules
//! for text-carrying structural fields are deliberately narrow, because
//! free text is where content hides:
//!
//! | field | accepted |
//! |---|---|
//! | `traceId` | 32 hex digits, or empty |
//! | `spanId`, `parentSpanId` | 16 hex digits, or empty |
//! | `*UnixNano` | a JSON string of 1 to 20 digits, or a JSON integer, fitting in u64 |
//! | `droppedAttributesCount`, `droppedEventsCount`, `droppedLinksCount` | a u32 as JSON integer or string of digits |
//! | span and link `flags` | a u32; bits other than those OTLP defines are cleared (see [`SPAN_FLAGS`]) |
//! | log record `flags` | a u32; bits other than the W3C trace flags are cleared (see [`LOG_FLAGS`]) |
//! | `kind` | 0..=5 or `SPAN_KIND_*` |
//! | `status.code` | 0..=2 or `STATUS_CODE_*` |
//! | `severityNumber` | 0..=24 or `SEVERITY_NUMBER_*` |
//! | `status.message` | empty only |
//! | `traceState` | W3C `key=value` list (at most 32 members, 512 bytes) whose values hold no spaces; members whose key is not in `[standard.otlp.trace_state]` are stripped, the others held to its value rule |
//! | `scope.name`, `scope.version` | `[standard.otlp] scope_name`, `scope_version` |
//! | `events[].name`, `eventName` | `[standard.otlp] event_name` |
//! | `severityText` | empty, or a level word (`TRACE`, `DEBUG`, `INFO`, `INFORMATION`, `NOTICE`, `WARN`, `WARNING`, `ERROR`, `CRITICAL`, `ALERT`, `FATAL`, `EMERGENCY`, any case) with an optional digit 2-4 |
//! | `schemaUrl` | `[standard.otlp] schema_url` |
//! | span `name` | one of `[standard.otlp] span_names` |
//! | `resourceSpans`, `scopeSpans`, `spans`, `events`, `links`, `resourceLogs`, `scopeLogs`, `logRecords`, attribute lists | at most `[standard.otlp] max_*` elements |
//!
//! The policy rules are string rules like any allowlisted attribute's:
//! ASCII-only patterns, `one_of`, `max_len`, and the built-in detectors;
//! an empty string (the protobuf default) always passes.
//!
//! Enum names are accepted besides numbers because the protobuf JSON
//! mapping allows them; they are a closed vocabulary and carry no text.
//! Identifier-shaped strings (`canary.token`) do satisfy the identifier
//! patterns: a pattern bounds the *shape* of a value, not its meaning, so
//! scope names and event names remain a narrow channel for short tokens.

use crate::otlp_schema::SEVERITY_WORDS;
pub use crate::otlp_schema::{
    FieldKind, LOG_FLAGS, Message, Place, REQUEST, Repeated, SPAN, SPAN_FLAGS, Structural, Text,
};

/// Whether `s` satisfies the text rule `t`.
pub fn text_ok(t: Text, s: &str) -> bool {
    match t {
        Text::Empty => s.is_empty(),
        Text::Severity => severity_ok(s),
    }
}

/// The finding message for a text rule, free of the value.
pub fn text_rule_message(t: Text) -> &'static str {
    match t {
        Text::Empty => "status message must be empty: free text can carry content",
        Text::Severity => "severity text must be empty or a severity level word",
    }
}

/// The stable rule name a failed text check reports.
pub fn text_rule_name(t: Text) -> crate::finding::Rule {
    use crate::finding::Rule;
    match t {
        Text::Empty => Rule::MaxLen,
        Text::Severity => Rule::OneOf,
    }
}

fn severity_ok(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    let word = match s.as_bytes().last() {
        Some(b'2'..=b'4') => &s[..s.len() - 1],
        _ => s,
    };
    SEVERITY_WORDS.iter().any(|w| w.eq_ignore_ascii_case(word))
}

/// The members of a trace state that [`trace_state_ok`] accepted, as
/// `(key, value)`, empty members skipped.
pub fn trace_state_members(s: &str) -> impl Iterator<Item = (&str, &str)> {
    s.split(',')
        .map(|m| m.trim_matches([' ', '\t']))
        .filter(|m| !m.is_empty())
        .filter_map(|m| m.split_once('='))
}

/// W3C trace-context `tracestate`, narrowed: values hold no spaces.
///
/// SECURITY: the W3C grammar lets a value hold spaces, which is room for a
/// sentence; a vendor value is an opaque token and never needs one.
pub fn trace_state_ok(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    if s.len() > 512 {
        return false;
    }
    let mut members = 0;
    for member in s.split(',') {
        let member = member.trim_matches([' ', '\t']);
        if member.is_empty() {
            // W3C allows empty list members (`a=1,,b=2`).
            continue;
        }
        members += 1;
        if members > 32 {
            return false;
        }
        let Some((key, value)) = member.split_once('=') else {
            return false;
        };
        if !trace_state_key_ok(key) || !trace_state_value_ok(value) {
            return false;
        }
    }
    true
}

fn trace_state_key_ok(key: &str) -> bool {
    let simple = |k: &str, max: usize, first_digit: bool| {
        let b = k.as_bytes();
        !b.is_empty()
            && b.len() <= max
            && (b[0].is_ascii_lowercase() || (first_digit && b[0].is_ascii_digit()))
            && b.iter()
                .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || b"_-*/".contains(&c))
    };
    match key.split_once('@') {
        Some((tenant, system)) => simple(tenant, 241, true) && simple(system, 14, false),
        None => simple(key, 256, false),
    }
}

fn trace_state_value_ok(value: &str) -> bool {
    !value.is_empty()
        && value.len() <= 256
        && value
            .bytes()
            .all(|c| (0x21..=0x7e).contains(&c) && c != b',' && c != b'=')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_state_follows_w3c_without_spaces_in_values() {
        assert!(trace_state_ok(""));
        assert!(trace_state_ok("rojo=00f067aa0ba902b7"));
        assert!(trace_state_ok("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"));
        assert!(trace_state_ok("tenant1@vendor=v1, b=2"));
        assert!(!trace_state_ok("rojo=a secret sentence"));
        assert!(!trace_state_ok("Rojo=1"));
        assert!(!trace_state_ok("novalue"));
        assert!(!trace_state_ok("a=b=c"));
        let many = (0..33).map(|i| format!("k{i}=v")).collect::<Vec<_>>();
        assert!(!trace_state_ok(&many.join(",")));
        let members: Vec<_> = trace_state_members("a=1,, b=2 ").collect();
        assert_eq!(members, vec![("a", "1"), ("b", "2")]);
    }

    #[test]
    fn severity_and_status_message_are_closed() {
        for ok in ["", "INFO", "info", "Warning", "ERROR3", "fatal4"] {
            assert!(text_ok(Text::Severity, ok), "{ok}");
        }
        for bad in ["INFO5", "my text", "CANARY", "INFO 2"] {
            assert!(!text_ok(Text::Severity, bad), "{bad}");
        }
        assert!(!text_ok(Text::Empty, "x"));
    }
}
