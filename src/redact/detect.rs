//! "Does anything match?": the question the standard level asks of every
//! allowlisted string (issue 14, item 4), cheaper than a redaction.
//!
//! A standard value is never rewritten, only judged: so no output is
//! built, no second pass is made, and the first region found names the
//! detector. The regions come from the same scan as [`Redactor::redact`],
//! so a value this passes is one redaction would leave unchanged.

use super::Redactor;

impl Redactor {
    /// The name of a detector that matches somewhere in `text` (the
    /// leftmost region's winner), or `None` when redaction would leave
    /// `text` unchanged.
    pub fn first_match(&self, text: &str) -> Option<&str> {
        let regions = self.regions(text);
        let first = regions.first()?;
        self.dets.get(first.det as usize).map(|d| &*d.name)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::super::{RedactConfig, builtin_names};
    use super::*;

    #[test]
    fn first_match_agrees_with_redaction() {
        let cfg = RedactConfig {
            builtin: builtin_names().iter().map(|s| s.to_string()).collect(),
            patterns: vec![],
            keywords: vec![],
        };
        let r = Redactor::compile(&cfg, None).unwrap();
        for (text, want) in [
            ("chatcmpl-9f2c41d0", None),
            ("req-jane.doe@example.com", Some("email")),
            ("id-4111111111111111", Some("credit_card")),
            ("x-123-45-6789", Some("us_ssn")),
            ("sk-proj-abcdefghijklmnopqrstuvwxyz012345", Some("api_key")),
            ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc", Some("jwt")),
            ("call-555-867-5309", Some("phone")),
            ("", None),
        ] {
            assert_eq!(r.first_match(text), want, "{text}");
            let (_, red) = r.redact_to_string(text);
            assert_eq!(red.changed, want.is_some(), "{text}");
        }
    }
}
