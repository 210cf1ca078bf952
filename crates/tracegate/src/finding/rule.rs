//! Rule names: the one list of every rule a finding can carry.
//!
//! A rule's name (`as_str`) is a contract: `check` prints it, scripts match
//! on it, and docs/reference.md lists every one of them (a test below
//! compares that table with [`Rule::ALL`] both ways). Nothing else in the
//! crate spells a rule name as a string.

use super::FindingKind;

/// Declares [`Rule`]'s unit variants with their name and kind, so a
/// variant, its name and its place in [`Rule::ALL`] are written once.
macro_rules! rules {
    ($( $(#[doc = $doc:literal])* $variant:ident => $name:literal, $kind:ident; )*) => {
        /// The stable rule a finding names (docs/reference.md, "Rules").
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Rule {
            $( $(#[doc = $doc])* $variant, )*
            /// A built-in detector matched in an allowlisted string at
            /// standard level: `detected_<detector>`.
            Detected(Detector),
        }

        impl Rule {
            /// Every rule, detector rules included, in documentation order.
            /// The unit rules, then one per detector in [`Detector::ALL`]'s order.
            pub const ALL: &'static [Rule] = &{
                let units = [$( Rule::$variant, )*];
                const N: usize = [$( $name, )*].len() + Detector::ALL.len();
                let mut all = [Rule::Detected(Detector::ApiKey); N];
                let mut i = 0;
                while i < all.len() {
                    all[i] = match i.checked_sub(units.len()) {
                        None => units[i],
                        Some(d) => Rule::Detected(Detector::ALL[d]),
                    };
                    i += 1;
                }
                all
            };

            /// The stable snake_case name findings carry.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( Rule::$variant => $name, )*
                    Rule::Detected(d) => d.rule_name(),
                }
            }

            /// The kind of finding this rule is reported as.
            pub fn kind(self) -> FindingKind {
                match self {
                    $( Rule::$variant => FindingKind::$kind, )*
                    Rule::Detected(_) => FindingKind::Violation,
                }
            }
        }
    };
}

rules! {
    /// The line is not valid UTF-8.
    InvalidUtf8 => "invalid_utf8", Malformed;
    /// The line is not valid JSON.
    InvalidJson => "invalid_json", Malformed;
    /// The line is JSON but not an object.
    NotObject => "not_object", Malformed;
    /// A key appears twice in one object (after unescaping), or an OTLP
    /// attribute key twice in one list.
    DuplicateKey => "duplicate_key", Malformed;
    /// Objects and arrays nest deeper than the tape allows.
    TooDeep => "too_deep", Malformed;
    /// The line is longer than `limits.max_line_bytes`.
    LineTooLong => "line_too_long", Malformed;
    /// The line names an OTLP export request's list (`resourceSpans`,
    /// `resourceLogs`) but is not the shape of one: another top-level
    /// member, or a known member of the wrong JSON type.
    OtlpShape => "otlp_shape", Malformed;
    /// A content field (prompt, completion, ...) at standard level.
    ContentField => "content_field", Violation;
    /// A field that is not on the allowlist.
    UnknownField => "unknown_field", Violation;
    /// A value of the wrong JSON or OTLP type.
    Type => "type", Violation;
    /// A string that does not match its rule's `pattern`.
    Pattern => "pattern", Violation;
    /// A string that is not one of its rule's `one_of` values.
    OneOf => "one_of", Violation;
    /// A number outside its rule's `min`..`max`, or not representable.
    Range => "range", Violation;
    /// A string longer than its rule's `max_len`.
    MaxLen => "max_len", Violation;
    /// A string with more segments, a longer segment or more words than
    /// its rule's `max_segments`, `max_segment_len` or `max_words`.
    Segments => "segments", Violation;
    /// An array with more elements than its rule's (or an OTLP bound's)
    /// `max_items`.
    MaxItems => "max_items", Violation;
    /// Structured OTLP content nested deeper than `[server] max_nesting`.
    MaxNesting => "max_nesting", Violation;
    /// A `required` field is missing.
    Required => "required", Violation;
    /// A record with content that lies in no window of the sink
    /// (`check --sink`).
    OutsideWindow => "outside_window", Violation;
    /// A `drop` redaction rule removed content.
    RedactDrop => "redact_drop", Violation;
    /// A field's redaction ran out of its work budget; the content is removed.
    RedactBudget => "redact_budget", Violation;
    /// An evidence record that does not fit the evidence model.
    EvidenceShape => "evidence_shape", Violation;
    /// The built-in detectors could not be built; every scanned string
    /// fails closed.
    DetectorsBroken => "detected", Violation;
    /// A derived duration does not reproduce from its events.
    DurationMismatch => "duration_mismatch", Evidence;
    /// A stated or computed duration below zero.
    NegativeDuration => "negative_duration", Evidence;
    /// An event earlier than an event it must follow.
    EventsOutOfOrder => "events_out_of_order", Evidence;
    /// An interval names an event the record does not hold.
    MissingEvent => "missing_event", Evidence;
    /// The same event name twice in one record.
    DuplicateEvent => "duplicate_event", Evidence;
    /// A cross-service interval computed from two services' monotonic clocks.
    CrossClockMonotonic => "cross_clock_monotonic", Evidence;
    /// A cross-service interval computed from UTC clocks not known to be
    /// synchronized.
    UnsyncedCrossObserver => "unsynced_cross_observer", Evidence;
    /// An interval named for tokens measured between byte events, or the
    /// reverse.
    TokenByteMismatch => "token_byte_mismatch", Evidence;
    /// `duration_unit` absent or not `ns`, `us`, `ms` or `s`.
    UnknownDurationUnit => "unknown_duration_unit", Evidence;
    /// No `schema_version`.
    MissingSchemaVersion => "missing_schema_version", Evidence;
    /// A `schema_version` other than the one the auditor knows.
    UnknownSchemaVersion => "unknown_schema_version", Evidence;
    /// The attempts of one trace and request are not numbered 1..n.
    AttemptsNotSequential => "attempts_not_sequential", Evidence;
    /// A completed record without a final boundary event.
    CompletedWithoutFinalEvent => "completed_without_final_event", Evidence;
    /// A record marked completed that shows it was partial.
    PartialMarkedCompleted => "partial_marked_completed", Evidence;
}

crate::io_text::named_enum! {
    /// What a `detected_<detector>` rule found.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    #[non_exhaustive]
    pub enum Detector {
        /// `api_key`: an API key or secret after a key-like name.
        ApiKey = "api_key",
        /// `jwt`: a JSON Web Token.
        Jwt = "jwt",
        /// `email`: an email address.
        Email = "email",
        /// `credit_card`: a card number passing the Luhn check.
        CreditCard = "credit_card",
        /// `iban`: an IBAN passing its mod-97 check.
        Iban = "iban",
        /// `us_ssn`: a US social security number.
        UsSsn = "us_ssn",
        /// `phone`: a phone number.
        Phone = "phone",
        /// `ipv6`: an IPv6 address.
        Ipv6 = "ipv6",
        /// `ipv4`: an IPv4 address.
        Ipv4 = "ipv4",
        /// `private_key`: a PEM private key block.
        PrivateKey = "private_key",
        /// `url_credentials`: a URL with a user and password.
        UrlCredentials = "url_credentials",
        /// The string was too costly to scan within the detectors' work budget
        /// (fail closed).
        OverBudget = crate::redact::OVER_BUDGET,
    }
}

impl Detector {
    /// The detector's name (`email`, `over_budget`, ...), as the redactor
    /// and `[standard] detectors` spell it ([`crate::redact::OVER_BUDGET`]
    /// for the over-budget marker).
    pub fn name(self) -> &'static str {
        self.as_str()
    }

    /// `detected_<name>`.
    fn rule_name(self) -> &'static str {
        static NAMES: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
            Detector::ALL
                .iter()
                .map(|d| format!("detected_{d}"))
                .collect()
        });
        NAMES.get(self as usize).map_or("", String::as_str)
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Serialises as its name, so JSON output reads as it always has.
impl serde::Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl PartialEq<str> for Rule {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Rule {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// The rules table of docs/reference.md: (name, kind) per row.
    fn documented() -> BTreeSet<(String, String)> {
        let doc = include_str!("../../../../docs/reference.md");
        let start = doc
            .find("<!-- rules-table -->")
            .expect("docs/reference.md marks its rules table");
        let mut rows = BTreeSet::new();
        for line in doc[start..].lines().skip(3) {
            let Some(row) = line.strip_prefix("| `") else {
                break;
            };
            let (name, rest) = row.split_once("` | `").expect("| `rule` | `kind` |");
            let (kind, _) = rest.split_once('`').expect("kind in backquotes");
            assert!(
                rows.insert((name.to_owned(), kind.to_owned())),
                "`{name}` is listed twice"
            );
        }
        rows
    }

    #[test]
    fn the_documented_rules_are_the_enums_rules_both_ways() {
        let documented = documented();
        let ours: BTreeSet<(String, String)> = Rule::ALL
            .iter()
            .map(|r| (r.as_str().to_owned(), r.kind().as_str().to_owned()))
            .collect();
        assert_eq!(
            ours.len(),
            Rule::ALL.len(),
            "a name appears twice in Rule::ALL"
        );
        let undocumented: Vec<_> = ours.difference(&documented).collect();
        let unknown: Vec<_> = documented.difference(&ours).collect();
        assert!(
            undocumented.is_empty(),
            "not in docs/reference.md: {undocumented:?}"
        );
        assert!(unknown.is_empty(), "documented but not a Rule: {unknown:?}");
    }

    #[test]
    fn every_builtin_detector_has_its_rule() {
        for name in crate::redact::builtin_names() {
            let d = Detector::from_name(name).expect("a Detector per built-in");
            assert_eq!(d.name(), *name);
            assert_eq!(Rule::Detected(d).as_str(), format!("detected_{name}"));
            assert!(Rule::ALL.contains(&Rule::Detected(d)));
        }
        let over = Detector::from_name(crate::redact::OVER_BUDGET);
        assert_eq!(over, Some(Detector::OverBudget));
        assert_eq!(Detector::from_name("emial"), None);
        // Every detector in ALL is a built-in or the budget marker.
        for r in Rule::ALL {
            if let Rule::Detected(d) = r {
                assert_eq!(Detector::from_name(d.name()), Some(*d));
            }
        }
    }

    #[test]
    fn names_are_snake_case_and_serialise_as_themselves() {
        for r in Rule::ALL {
            let name = r.as_str();
            assert!(
                !name.is_empty()
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b == b'_' || b.is_ascii_digit()),
                "{name}"
            );
            assert_eq!(serde_json::to_string(r).unwrap(), format!("\"{name}\""));
            assert_eq!(r.to_string(), name);
        }
    }
}
