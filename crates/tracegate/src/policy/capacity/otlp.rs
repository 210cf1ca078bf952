//! How the capacity walk reads the crate's OTLP table
//! ([`crate::otlp_schema`]): where each message's members are reported, and
//! how many severity texts pass.
//!
//! The walk counts one unit: one resource group, one scope group, one span
//! or log record; a request's array of the other signal may be present but
//! empty.

use crate::otlp_schema::{Name, Repeated, SEVERITY_WORDS};

/// Where the members of a message are reported (`span.attributes`, ...).
pub fn path(name: Name) -> &'static str {
    match name {
        Name::Request | Name::TracesRequest | Name::LogsRequest => "request",
        Name::ResourceSpans => "resourceSpans",
        Name::ResourceLogs => "resourceLogs",
        Name::ScopeSpans => "scopeSpans",
        Name::ScopeLogs => "scopeLogs",
        Name::Resource => "resource",
        Name::Scope => "scope",
        Name::Span => "span",
        Name::Event => "span.events[]",
        Name::Link => "span.links[]",
        Name::Status => "span.status",
        Name::LogRecord => "log",
        Name::KeyValue => "attribute",
        Name::AnyValue => "value",
        Name::ArrayValue => "value.arrayValue",
        Name::KvList => "value.kvlistValue",
    }
}

/// A repeated structure within one unit, for derivations.
pub fn note(r: Repeated) -> &'static str {
    match r {
        Repeated::Resources => "resources",
        Repeated::Scopes => "scopes",
        Repeated::Spans => "spans",
        Repeated::Events => "events",
        Repeated::Links => "links",
        Repeated::LogRecords => "log records",
    }
}

/// How many non-empty severity texts pass: each word in any case, with
/// or without a digit 2 to 4 (the empty one is counted by the caller).
pub fn severity_texts() -> f64 {
    let words: f64 = SEVERITY_WORDS.iter().map(|w| (w.len() as f64).exp2()).sum();
    1.0 + 4.0 * words
}
