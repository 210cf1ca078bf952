//! The second line of defence at standard level (issue 14, item 4): the
//! built-in detectors run over every allowlisted string value that a
//! pattern admits, so an id that fits `chatcmpl-[0-9a-f]+` but holds a
//! card number, or a code that fits `[a-z0-9_.@-]+` but holds an email,
//! is a violation all the same.
//!
//! A hit is a violation under its own rule name, `detected_<detector>`
//! (`detected_email`, `detected_credit_card`, ...), so `check` output and
//! `filter` summaries say which shape was found; the message names the
//! detector and never the value. Values from `one_of` lists are not
//! scanned: they are the policy's own words, so they carry no record
//! text. An `_` is read as a separator too (`req_4111111111111111`).
//! Hex trace and span ids are not scanned either: random hex holds
//! digit runs that pass a Luhn check now and then, and an id is a 64- or
//! 128-bit channel whatever its digits (pseudonymize it to close it).

use std::sync::Arc;

use crate::finding::{Detector, Rule};
use crate::policy::redaction::{DetectorsBroken, compile_detectors};
use crate::redact::Redactor;

/// The standard level's detectors, compiled once per policy.
pub enum Detectors {
    /// `[standard] detectors = []`.
    Off,
    /// The built-in detectors the policy names, and the digit threshold of
    /// the parameters of their pre-test (`Redactor::quick`).
    On(Arc<Redactor>, crate::redact::Quick),
    /// They could not be built (a bug): every scanned value fails closed.
    Broken,
}

impl std::fmt::Debug for Detectors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Detectors::Off => write!(f, "Detectors::Off"),
            Detectors::On(r, _) => write!(f, "Detectors::On({r:?})"),
            Detectors::Broken => write!(f, "Detectors::Broken"),
        }
    }
}

impl Detectors {
    /// Build the detectors `names` (built-in detector names). Gates take
    /// them from their policy ([`Detectors::shared`]), which compiles them
    /// once: a detector automaton is megabytes, and `serve` makes a gate
    /// per request.
    pub fn new(names: &[String]) -> Detectors {
        Detectors::shared(compile_detectors(names))
    }

    /// The detectors of a policy (`Redaction::standard_detectors`):
    /// `Ok(None)` when the policy names none.
    pub fn shared(compiled: Result<Option<Arc<Redactor>>, DetectorsBroken>) -> Detectors {
        match compiled {
            Ok(None) => Detectors::Off,
            Ok(Some(r)) => {
                let quick = r.quick();
                Detectors::On(r, quick)
            }
            // SECURITY: fail closed; the policy compiler already refused
            // unknown names, so this is a bug, never a weaker gate.
            Err(DetectorsBroken) => Detectors::Broken,
        }
    }

    /// The rule a string value breaks, when a detector matches in it.
    pub fn hit(&self, s: &str) -> Option<Rule> {
        match self.hit_bytes(s.as_bytes()) {
            Ok(hit) => hit,
            // A `&str` is UTF-8; were it not, fail closed.
            Err(_) => Some(Rule::DetectorsBroken),
        }
    }

    /// [`Detectors::hit`] on raw string bytes, with the UTF-8 check only
    /// where the scan needs it: the pre-test passes only ASCII bytes
    /// ([`may_match_quick_bytes`](crate::redact::may_match_quick_bytes)),
    /// so what it skips is UTF-8 already. An error when `s` is not UTF-8.
    pub fn hit_bytes(&self, s: &[u8]) -> Result<Option<Rule>, std::str::Utf8Error> {
        match self {
            Detectors::Off => std::str::from_utf8(s).map(|_| None),
            // The pre-test skips the scan where no built-in shape can be.
            Detectors::On(_, t) if !crate::redact::may_match_quick_bytes(s, *t) => Ok(None),
            Detectors::On(r, _) => {
                let s = std::str::from_utf8(s)?;
                Ok(r.first_match(s)
                    .or_else(|| {
                        // SECURITY: `_` is a word character to the detectors
                        // (`\b` does not hold between `req_` and a card
                        // number), but ids use it as a separator: look again
                        // with it read as one.
                        memchr::memchr(b'_', s.as_bytes())
                            .and_then(|_| r.first_match(&s.replace('_', " ")))
                    })
                    .map(rule_name))
            }
            Detectors::Broken => std::str::from_utf8(s).map(|_| Some(Rule::DetectorsBroken)),
        }
    }
}

/// The rule of a hit by detector `name` (a built-in detector name or the
/// over-budget marker); [`Rule::DetectorsBroken`] for a name the redactor
/// should never report (fail closed: it is still a violation).
pub fn rule_name(name: &str) -> Rule {
    Detector::from_name(name).map_or(Rule::DetectorsBroken, Rule::Detected)
}

/// The finding message of a hit under `rule`: names the detector only.
pub fn message(rule: Rule) -> String {
    match rule {
        Rule::Detected(Detector::OverBudget) => {
            "string is too costly to scan within the detectors' work budget; it fails closed".into()
        }
        Rule::Detected(d) => format!(
            "string matches the built-in `{}` detector; an allowlisted value must not hold one",
            d.name()
        ),
        _ => "the built-in detectors could not be built; string values fail closed".into(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_has_its_own_rule_name() {
        for name in crate::redact::builtin_names() {
            assert_eq!(rule_name(name).as_str(), format!("detected_{name}"));
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod gate_tests {
    use std::path::Path;
    use std::sync::Arc;

    use crate::gate::{Gate, Verdict};
    use crate::policy::Policy;
    use crate::source::lines::Line;
    use crate::window::Level;

    fn judge(policy: &str, line: &str) -> (Verdict, Vec<String>) {
        let p = Arc::new(Policy::from_toml(Path::new("p.toml"), policy).unwrap());
        let mut g = Gate::new(p);
        let j = g.judge(1, &Line::Text(line.as_bytes()), Level::Standard, true);
        let f = g
            .findings()
            .iter()
            .map(|f| format!("{}@{}", f.rule, f.field.as_deref().unwrap_or("-")))
            .collect();
        (j.verdict, f)
    }

    /// Values that fit their patterns but hold what a detector finds, in
    /// every format, on the fast path and the full one.
    #[test]
    fn a_value_that_fits_its_pattern_but_holds_a_secret_is_a_violation() {
        let loose = r#"
[standard]
detectors = ["api_key", "jwt", "email", "credit_card", "iban", "us_ssn", "phone", "ipv6", "ipv4"]
[standard.fields]
request_id = { type = "string", pattern = '[A-Za-z0-9_.@:+-]{1,96}' }
"#;
        for (line, rule) in [
            (
                r#"{"request_id":"chatcmpl-4111111111111111"}"#,
                "detected_credit_card",
            ),
            (
                r#"{"request_id": "chatcmpl-4111111111111111"}"#,
                "detected_credit_card",
            ),
            (r#"{"request_id":"jane.doe@example.com"}"#, "detected_email"),
            (r#"{"request_id":"ssn-123-45-6789"}"#, "detected_us_ssn"),
            (r#"{"request_id":"+14155550123"}"#, "detected_phone"),
            (
                r#"{"request_id":"sk-proj-abcdefghijklmnopqrstuvwxyz0123"}"#,
                "detected_api_key",
            ),
            (
                r#"{"request_id":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig"}"#,
                "detected_jwt",
            ),
            (r#"{"request_id":"10.1.2.3"}"#, "detected_ipv4"),
            (
                r#"{"request_id":"req_4111111111111111"}"#,
                "detected_credit_card",
            ),
            (
                r#"{"request_id":"req_4111_1111_1111_1111"}"#,
                "detected_credit_card",
            ),
        ] {
            let (v, f) = judge(loose, line);
            assert_eq!(v, Verdict::Dropped, "{line}: {f:?}");
            assert_eq!(f, vec![format!("{rule}@request_id")], "{line}");
        }
        // The default policy: the card hides in a hex id.
        let (v, f) = judge("", r#"{"request_id":"chatcmpl-4111111111111111"}"#);
        assert_eq!(v, Verdict::Dropped);
        assert_eq!(f, vec!["detected_credit_card@request_id"]);
        // OTLP attributes and evidence fields.
        let (v, f) = judge(
            "",
            r#"{"name":"llm_request","attributes":[{"key":"cf.request_id","value":{"stringValue":"chatcmpl-5555555555554444"}}]}"#,
        );
        assert_eq!(v, Verdict::Dropped);
        assert_eq!(
            f,
            vec![r#"detected_credit_card@attributes["cf.request_id"]"#]
        );
        let (v, f) = judge(
            "",
            r#"{"schema_version":"latency-evidence.v1","trace_id":"tr_4111111111111111","request_id":"r","attempt":1,"events":[],"derived_intervals":[],"status":"completed"}"#,
        );
        assert_eq!(v, Verdict::Dropped, "{f:?}");
        assert!(
            f.contains(&"detected_credit_card@trace_id".to_string()),
            "{f:?}"
        );
        // Clean ids pass; with the detectors off, the card is not looked for.
        let (v, _) = judge("", r#"{"request_id":"chatcmpl-9f2c41d0"}"#);
        assert_eq!(v, Verdict::Verbatim);
        let (v, _) = judge(
            "[standard]\ndetectors = []\n",
            r#"{"request_id":"chatcmpl-4111111111111111"}"#,
        );
        assert_eq!(v, Verdict::Verbatim);
    }

    #[test]
    fn unknown_detector_names_are_refused() {
        let e = Policy::from_toml(Path::new("p.toml"), "[standard]\ndetectors = [\"emial\"]\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown detector `emial`") && e.contains("email"),
            "{e}"
        );
    }
}
