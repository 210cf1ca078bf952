//! Records: how a line is scanned ([`tape`]) and which format it is.

pub mod canonical;
pub mod cf_span;
pub mod escape;
pub mod otlp_proto;
pub mod tape;

use tape::{Kind, Tape, string_value};

crate::io_text::named_enum! {
    /// A record format (docs/reference.md, Records); its name (`as_str`)
    /// is the one `--input-format` takes.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    #[non_exhaustive]
    pub enum Format {
        /// The engine's own flat record (`cf`).
        Cf = "cf",
        /// OpenTelemetry: an OTLP/JSON export request or a bare span.
        Otlp = "otlp",
        /// A `latency-evidence.v1` record.
        Evidence = "evidence",
    }
}

/// The `schema_version` that marks an evidence record.
pub const EVIDENCE_SCHEMA: &str = "latency-evidence.v1";

/// Detect the format of a scanned line from its top-level keys.
pub fn detect(tape: &Tape, text: &str) -> Format {
    let tokens = tape.tokens();
    let mut has_name = false;
    let mut has_attr_array = false;
    for (k, v) in tape.members(0) {
        let key = string_value(text, &tokens[k]);
        let kind = tokens[v].kind;
        match key.as_ref() {
            // Whatever its value: a line naming an export request's list is
            // judged (and refused, when it is not one) as a request.
            "resourceSpans" | "resourceLogs" => return Format::Otlp,
            "schema_version"
                if kind == Kind::String && string_value(text, &tokens[v]) == EVIDENCE_SCHEMA =>
            {
                return Format::Evidence;
            }
            "name" => has_name = true,
            "attributes" if kind == Kind::Array => has_attr_array = true,
            _ => {}
        }
    }
    if has_name && has_attr_array {
        Format::Otlp
    } else {
        Format::Cf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(s: &str) -> Format {
        let mut t = Tape::new();
        let text = t.scan(s.as_bytes()).unwrap();
        detect(&t, text)
    }

    #[test]
    fn formats_are_detected_per_line() {
        assert_eq!(fmt(r#"{"request_id":"chatcmpl-1"}"#), Format::Cf);
        assert_eq!(fmt(r#"{"resourceSpans":[]}"#), Format::Otlp);
        assert_eq!(fmt(r#"{"resourceLogs":[]}"#), Format::Otlp);
        assert_eq!(
            fmt(r#"{"name":"llm_request","attributes":[]}"#),
            Format::Otlp
        );
        assert_eq!(
            fmt(r#"{"schema_version":"latency-evidence.v1"}"#),
            Format::Evidence
        );
        assert_eq!(
            fmt(r#"{"schema_version":"latency-evidence.v2"}"#),
            Format::Cf
        );
        assert_eq!(fmt(r#"{"resourceSpans":"x"}"#), Format::Otlp);
    }
}
